// What a sustained-load case reports besides its own counts: the event loop's delay and the
// process's RSS over the run (at the start, a third in, its peak and at the end). Shared by the
// ledger-under-load figure (9) and the overload figure (12), so the two read alike.
import type { monitorEventLoopDelay } from "node:perf_hooks";

type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;

export interface LoadFigures {
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  readonly rssStartMb: number;
  readonly rssThirdMb: number;
  readonly rssMaxMb: number;
  readonly rssEndMb: number;
}

const mb = (bytes: number): number => bytes / 1024 / 1024;

/** `delay` sampled over the run; `rss` the samples taken during it, after `rssStart`. */
export function loadFigures(delay: IntervalHistogram, rssStart: number, rss: readonly number[]): LoadFigures {
  return {
    loopDelayMaxMs: delay.max / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    rssStartMb: mb(rssStart),
    rssThirdMb: mb(rss[Math.floor(rss.length / 3)] ?? rssStart),
    rssMaxMb: mb(Math.max(rssStart, ...rss)),
    rssEndMb: mb(rss.at(-1) ?? rssStart),
  };
}
