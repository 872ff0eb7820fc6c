// No argument text under the size cap may cost a call more than a constant multiple of reading
// it: each hostile payload (bench/lib/hostile-payloads.ts) is sent at two sizes, eight times
// apart, and the call's cost relative to JSON.parse on the same text must stay about the same
// (linear work keeps the ratio; quadratic work multiplies it by eight). JSON.parse is the
// yardstick because its own time is not exactly linear either (caches, large-object space).
// Times (CPU, this process's) are compared with each other on the same machine in the same test,
// never with an absolute limit; each is the least of several batches, so a busy neighbour
// inflates little.
import { beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_PAYLOADS } from "../../bench/lib/hostile-payloads.ts";
import { hostileTool } from "../../bench/lib/hostile-tool.ts";
import type { GuardedTool } from "../../templates/runtime/contract/api.ts";

const SMALL = 20_000;
const LARGE = 8 * SMALL;
/**
 * How much the call/JSON.parse ratio may grow from SMALL to LARGE: 1 if linear, 8 if quadratic
 * (the quadratic uniqueItems loop measured 16.6). Linear work that builds a large hash set still
 * grows the ratio two- to four-fold once the set no longer fits the CPU's caches.
 */
const MAX_GROWTH = 5;
/**
 * The most a call may cost over JSON.parse on a text at the byte cap (issue 27: 260,000
 * coercion records made a 1 MiB array of numeric strings cost 21-48x; bench figure 8 has every
 * shape under 4x on a quiet machine).
 */
const MAX_RATIO_AT_CAP = 8;
/** Characters a text at the cap may have: under the default 1 MiB, so it is checked, not refused for its size. */
const CAP = 1_000_000;

/** The builder's text at the largest size under CAP (a builder's length is not exactly proportional to its size). */
function atCap(build: (size: number) => string): string {
  let size = CAP;
  let text = build(size);
  while (text.length > CAP) {
    size = Math.floor((size * CAP * 0.98) / text.length);
    text = build(size);
  }
  return text;
}

let tool: GuardedTool<string>;
let turn = 0;
beforeAll(async () => {
  tool = await hostileTool();
});

/**
 * Least CPU time per call (this process's user + system, in ms) over a few batches, each long
 * enough to be measured. CPU rather than wall time: with other test files and jobs on the cores,
 * a batch's wall time counts the time it waited for a core (a ratio read 3 checks over the bound
 * once at load 9 on wall time), while its CPU time counts only its own work.
 */
async function bestMs(run: () => unknown): Promise<number> {
  let best = Infinity;
  let calls = 1;
  for (let batch = 0; batch < 5; batch++) {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run();
    const used = process.cpuUsage(before);
    const elapsed = (used.user + used.system) / 1000;
    best = Math.min(best, elapsed / calls);
    if (elapsed < 20) calls = Math.min(calls * 4, 256);
  }
  return best;
}

describe("hostile arguments cost time linear in their size", () => {
  it.each(Object.keys(HOSTILE_PAYLOADS))("%s", async (name) => {
    const build = HOSTILE_PAYLOADS[name] as (size: number) => string;
    const small = build(SMALL);
    const large = build(LARGE);
    expect(large.length).toBeLessThan(1024 * 1024);
    const ratio = async (text: string): Promise<number> => {
      const call = await bestMs(() => tool.call(text, { turn: `t${turn++}` }));
      const parse = await bestMs(() => parseOrNot(text));
      return call / parse;
    };
    await ratio(small); // warm up
    const growth = (await ratio(large)) / (await ratio(small));
    expect(growth, `${name}: from ${SMALL} to ${LARGE} characters the call's cost over JSON.parse grew ${growth.toFixed(1)}-fold`).toBeLessThan(MAX_GROWTH);
    const capped = atCap(build);
    const atTheCap = await ratio(capped);
    expect(atTheCap, `${name}: at ${capped.length} characters a call cost ${atTheCap.toFixed(1)}x JSON.parse`).toBeLessThan(MAX_RATIO_AT_CAP);
  });
});

function parseOrNot(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
