// A ledger line's head, up to its `turn` (entry-text.ts writes the rest): `{"v":1,"chain":"<id>",
// "tool":<tool>,"turn":`. A minted id (chain-id.ts) is a process's prefix and a counter, so for a
// tool the head is one piece, the counter's hex digits written over its zeros: one copy where
// there were three (the opening and prefix, the counter, the tool's part).
import { fixed, type LineWriter } from "./line-writer.ts";

/** What `writeHead` reads of an entry (entry-text.ts `EntryHead`). */
interface Head {
  readonly chain: string;
  readonly mintedPrefix: string;
  readonly mintedCounter: number;
  readonly tool: string;
}

/** A line's version (docs/ledger.md, "Format"): 1, 2 on a resolved entry's line, 3 on a clean entry's with its text embedded. */
export type LineVersion = 1 | 2 | 3;

/** `{"v":<n>,"chain":"` per version, at the version's index. */
const OPEN: readonly Uint8Array[] = [fixed(""), fixed('{"v":1,"chain":"'), fixed('{"v":2,"chain":"'), fixed('{"v":3,"chain":"')];

/** The line's opening joined with minted ids' prefix (one per process, as a rule), per version. */
const OPENING = { prefix: "", byVersion: [...OPEN] };

/** `{"v":<version>,"chain":"<prefix>`. */
function openingWith(prefix: string, version: LineVersion): Uint8Array {
  if (prefix !== OPENING.prefix) {
    OPENING.prefix = prefix;
    OPENING.byVersion = OPEN.map((_, at) => fixed(`{"v":${at},"chain":"${prefix}`));
  }
  return OPENING.byVersion[version] as Uint8Array;
}

/** `","tool":<tool>,"turn":` per tool name: a process writes the lines of a few tools, over and over. */
const TOOL_BYTES = new Map<string, Uint8Array>();
/** Tool names kept in `TOOL_BYTES`; past it (a sink user's own entries with made-up names) they are encoded per line. */
const MAX_TOOLS_KEPT = 4096;

function toolPart(tool: string): Uint8Array {
  let bytes = TOOL_BYTES.get(tool);
  if (bytes === undefined) {
    bytes = Buffer.from(`","tool":${JSON.stringify(tool)},"turn":`, "utf8");
    if (TOOL_BYTES.size < MAX_TOOLS_KEPT) TOOL_BYTES.set(tool, bytes);
  }
  return bytes;
}

/**
 * A minted id's line head as one piece per tool: the opening, the process's prefix, 12 zeros where
 * the counter's hex digits go, and `toolPart` (`{"v":1,"chain":"<prefix>000000000000","tool":...`),
 * per version (at the version's index). One copy and the digits written over it, not three copies around them.
 */
interface Pieces {
  readonly prefix: string;
  readonly byVersion: (Uint8Array | undefined)[];
}
const HEADS = new Map<string, Pieces>();
/** Where a head's counter digits start (after `{"v":1,"chain":"` and the 24 characters of a prefix). */
const COUNTER_AT = (OPEN[1] as Uint8Array).length + 24;
const COUNTER_ZEROS = "000000000000";

/** `Pieces`' piece for `tool`, `prefix` and the version; undefined for a prefix not 24 characters long (not chain-id.ts's). */
function headOf(tool: string, prefix: string, version: LineVersion): Uint8Array | undefined {
  let head = HEADS.get(tool);
  if (head === undefined || head.prefix !== prefix) {
    if (prefix.length !== 24) return undefined;
    head = { prefix, byVersion: [undefined, undefined, undefined, undefined] };
    if (HEADS.size < MAX_TOOLS_KEPT || HEADS.has(tool)) HEADS.set(tool, head);
  }
  return (head.byVersion[version] ??= Buffer.concat([fixed(`{"v":${version},"chain":"${prefix}${COUNTER_ZEROS}`), toolPart(tool)]));
}

/**
 * `{"v":<version>,"chain":"<id>","tool":<tool>,"turn":`: a minted id as bytes from its prefix and
 * counter (the 48-bit counter as two halves of 6 hex digits), any other id as its text.
 */
export function writeHead(out: LineWriter, head: Head, version: LineVersion): void {
  const counter = head.mintedCounter;
  const joined = counter < 0 ? undefined : headOf(head.tool, head.mintedPrefix, version);
  if (joined !== undefined) {
    const at = out.length + COUNTER_AT;
    out.bytesOf(joined);
    out.hexAt(at, Math.floor(counter / 0x1000000), 6);
    out.hexAt(at + 6, counter % 0x1000000, 6);
    return;
  }
  if (counter < 0) {
    out.bytesOf(OPEN[version] as Uint8Array);
    out.ascii(head.chain);
  } else {
    out.bytesOf(openingWith(head.mintedPrefix, version));
    out.hex(Math.floor(counter / 0x1000000), 6);
    out.hex(counter % 0x1000000, 6);
  }
  out.bytesOf(toolPart(head.tool));
}
