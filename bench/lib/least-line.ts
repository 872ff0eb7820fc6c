// Figure 9's least line (bench/cases/ledger-load.ts): the fewest bytes a clean call's ledger line
// can honestly be written with, in the line writer's own buffer, for scale beside the line.

/** The line writer's methods the least line uses (runtime/ledger/line-writer.ts). */
export interface LeastWriter {
  readonly length: number;
  reset(): void;
  bytes(): Uint8Array;
  bytesOf(bytes: Uint8Array): void;
  string(text: string): void;
  verbatim(text: string): boolean;
  newline(): void;
  hexAt(at: number, value: number, width: number): void;
  decimalAt(at: number, value: number, width: number): void;
}

/** What the least line reads of an entry the line writer wrote: its minted id, turn, time and raw text. */
export interface Minted {
  readonly mintedPrefix: string;
  readonly mintedCounter: number;
  readonly turn: string;
  readonly startedAtMs: number;
  readonly attempts: readonly { readonly raw: string }[];
}

/**
 * The least line that can honestly be written (issue 26), for scale: the entry's chain id, tool,
 * turn, time and raw text as a version-3 line (docs/ledger.md, "Format": since line19 the raw
 * text is embedded as it is, not escaped), into the same reused buffer; no redaction, no caps,
 * no choice of fields, no test for a line break in the text. The id and the time are written as
 * the line writer writes them, fixed bytes with their digits written over zeros (the id's 12 hex
 * digits, the time's 3 of milliseconds): the least line used to copy them as text, the id and the
 * time strings each flattened once as they were written, which cost it about as much as its raw
 * text. Its fields are read before the timed loop. On a clean first-attempt entry (GitHub's
 * bodies) its bytes are the line's (`sameAsLine`); the invoice's line has a resolution besides.
 * CPU ns per line.
 */
export function leastLines(
  out: LeastWriter,
  name: string,
  entries: readonly Minted[],
  writeLine: (entry: Minted) => void,
): { ns: number; sameAsLine: boolean } {
  const prefix = entries[0]?.mintedPrefix ?? "";
  const head = Buffer.from(`{"v":3,"chain":"${prefix}000000000000","tool":${JSON.stringify(name)},"turn":`, "utf8");
  const counterAt = '{"v":3,"chain":"'.length + prefix.length;
  const tail = Buffer.from("}", "latin1");
  // One time piece per second the entries started in, with `000` where the milliseconds go.
  const times = new Map<number, Buffer>();
  const fields = entries.map((entry) => {
    if (entry.mintedCounter < 0 || entry.mintedPrefix !== prefix) throw new Error(`${name}: the least line takes minted ids of one prefix`);
    const second = Math.floor(entry.startedAtMs / 1000);
    let time = times.get(second);
    if (time === undefined) {
      const iso = new Date(second * 1000).toISOString().slice(0, 20);
      time = Buffer.from(`,"startedAt":"${iso}000Z","verdict":"ok","args":`, "latin1");
      times.set(second, time);
    }
    const counter = entry.mintedCounter;
    return [Math.floor(counter / 0x1000000), counter % 0x1000000, entry.turn, time, entry.startedAtMs % 1000, entry.attempts[0]?.raw ?? ""] as const;
  });
  const milliAt = ',"startedAt":"YYYY-MM-DDTHH:MM:SS.'.length;
  const write = (index: number): void => {
    const [high, low, turn, time, milli, raw] = fields[index] as (typeof fields)[number];
    const at = out.length;
    out.bytesOf(head);
    out.hexAt(at + counterAt, high, 6);
    out.hexAt(at + counterAt + 6, low, 6);
    out.string(turn);
    const timeAt = out.length;
    out.bytesOf(time);
    out.decimalAt(timeAt + milliAt, milli, 3);
    if (!out.verbatim(raw)) throw new Error(`${name}: the least line takes well-formed texts`);
    out.bytesOf(tail);
    out.newline();
  };
  out.reset();
  const start = process.cpuUsage();
  for (let i = 0; i < fields.length; i++) {
    if (out.length > 1 << 20) out.reset();
    write(i);
  }
  const ns = cpuNs(process.cpuUsage(start)) / fields.length;
  // The same entry's line, written again (its id and time are fixed now), beside the least line.
  out.reset();
  writeLine(entries[0] as Minted);
  const line = Buffer.from(out.bytes());
  out.reset();
  write(0);
  return { ns, sameAsLine: line.equals(out.bytes()) };
}

function cpuNs(used: NodeJS.CpuUsage): number {
  return (used.user + used.system) * 1000;
}
