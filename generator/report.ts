// What `toolguard report` needs besides its analysis (generator/report/: fold, analysis,
// findings, the text, markdown, JSON and HTML outputs): the `--since` window over the ledger,
// what to say when the ledger is shorter than the window, and ledger names made printable.
const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `--since` text (`90m`, `24h`, `7d`) as milliseconds; undefined when it is none of those. */
export function parseWindow(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([mhd])$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  return match && amount > 0 ? amount * (UNITS[match[2] as string] as number) : undefined;
}

/** What a windowed read saw: the oldest chain start in the ledger, whether in the window or not. */
export interface WindowScan {
  oldest: number | undefined;
}

/** The entries whose chain started at or after `since` (ms since the epoch); `scan.oldest` is noted on the way. */
export async function* withinWindow<Entry>(entries: AsyncIterable<Entry>, since: number, scan: WindowScan): AsyncGenerator<Entry> {
  for await (const entry of entries) {
    // A ledger is anyone's to write: an entry without a readable start time is outside any window.
    const startedAt = (entry as { startedAt?: unknown } | null)?.startedAt;
    const started = typeof startedAt === "string" ? Date.parse(startedAt) : Number.NaN;
    if (Number.isFinite(started) && (scan.oldest === undefined || started < scan.oldest)) scan.oldest = started;
    if (started >= since) yield entry;
  }
}

/**
 * What the report must say when its window is shorter than asked: the ledger's oldest entry is
 * younger than the window's start (retention rotated older ones away, or they were never
 * written). Undefined when the ledger reaches back far enough.
 */
export function windowShortfall(since: number, now: number, oldest: number | undefined): string | undefined {
  const asked = duration(now - since);
  if (oldest === undefined) return `the ledger holds no entry with a start time: the report covers none of the ${asked} asked`;
  if (oldest <= since) return undefined;
  return `the ledger reaches back only to ${new Date(oldest).toISOString()}, ${duration(now - oldest)} of the ${asked} asked: older entries were rotated away (see stats().rotatedAway and toolguard.ledger.lost) or never written`;
}

function duration(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${(hours / 24).toFixed(1)} days` : hours >= 1 ? `${hours.toFixed(1)} hours` : `${Math.max(0, Math.round(ms / 60_000))} minutes`;
}

/**
 * A name from the ledger as the terminal may show it: anyone who can call a tool writes the
 * ledger, so escape sequences, control characters, line separators and bidirectional overrides
 * are written as `\u{...}`, never sent raw, and the name is cut to 120 characters.
 */
export function printable(text: string): string {
  const shown = escapeControls(text);
  return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown;
}

/** `printable` without the cut: for sentences that quote ledger values already cut to length. */
export function escapeControls(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
  );
}
