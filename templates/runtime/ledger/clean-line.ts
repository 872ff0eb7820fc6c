// A clean entry's line (clean-entry.ts `cleanShapeOf`: verdict `ok`, one attempt that passed with
// nothing but its raw text, no repairs, arguments, key or cap), from fixed pieces around the id,
// the turn, the time and the text. Version 3 where it can be (docs/ledger.md, "Format"): the raw
// text, which is JSON, embedded as the value of `args` byte for byte, and the members a clean entry
// implies (`errors`, `coercions`, `repairs`) left to the reader (embedded-line.ts). Escaped as a
// JSON string, a text doubles every quote; embedded, it is copied once: 0.58-0.79x of the line's
// CPU and 0.80-0.86x of its bytes on the five bench bodies (docs/ledger.md, "The line, byte by byte").
import type { Resolution } from "../contract/resolution.ts";
import type { LedgerAttempt } from "./ledger.ts";
import { recordsOnlyRaw } from "./clean-entry.ts";
import { parsedWhole } from "./declared-keys.ts";
import { writeStartedAt } from "./iso-time.ts";
import { writeHead } from "./line-head.ts";
import { fixed, type LineWriter } from "./line-writer.ts";
import { ResolutionPieceTable } from "./resolution-pieces.ts";

/** `","verdict":"ok","attempts":[{"raw":`: a version-1 clean line's piece after its time. */
const OK_RAW = fixed('","verdict":"ok","attempts":[{"raw":');
/** `,"errors":[],"coercions":[]}],"repairs":0}`: a version-1 clean line's end. */
const CLEAN_LINE_END = fixed(',"errors":[],"coercions":[]}],"repairs":0}');
/** `","verdict":"ok","args":`: a version-3 line's piece after its time; the text and `}` follow. */
const OK_ARGS = fixed('","verdict":"ok","args":');

/** `","verdict":"ok","resolved":`: a resolved version-3 line's piece after its time; the resolution, `"args":` and the text follow. */
const OK_RESOLVED = fixed('","verdict":"ok","resolved":');
/** Per reference field, the pieces around a version-3 line's resolution: `{"path":<path>,"text":` and `,"target":<target>},"args":`. */
const RESOLVED_PIECES = new ResolutionPieceTable([',"args":'], { open: '{"path":', close: "}" });
const ID = fixed(',"id":');

/** What a clean line reads of its entry: the head every line starts with (entry-text.ts `EntryHead` adds the rest). */
export interface CleanHead {
  /** The chain's id; read only when `mintedCounter` is -1. */
  readonly chain: string;
  /** A minted id's prefix and counter (chain-id.ts), written as bytes without the id's text; -1: none. */
  readonly mintedPrefix: string;
  readonly mintedCounter: number;
  readonly tool: string;
  readonly turn: string;
  /** The start, in integer milliseconds since the epoch (`startedAt` is its ISO text). */
  readonly startedAtMs: number;
}

/**
 * Whether a passing attempt may be embedded in a version-3 line: nothing but its raw text (no
 * finish reason, resolution or any other member), and that text one whole JSON text as the guard's
 * own parse read it (declared-keys.ts `parsedWhole`: not a record made elsewhere, not redacted or
 * cut, which build their own). Whether it holds a line break is the writer's to ask.
 */
export function embeddable(attempt: LedgerAttempt): boolean {
  return attempt.finishReason === undefined && attempt.resolutions === undefined && recordsOnlyRaw(attempt) && parsedWhole(attempt);
}

/** `embeddable`, but for the one resolution a resolved call's attempt has (which `writeEmbeddedResolved` checks is plain). */
export function embeddableResolved(attempt: LedgerAttempt): boolean {
  return attempt.finishReason === undefined && attempt.resolutions?.length === 1 && recordsOnlyRaw(attempt) && parsedWhole(attempt);
}

/** Whether `text` holds `\n` or `\r`: JSON whitespace that would end or break a JSONL line if written as it is. */
export function hasLineBreak(text: string): boolean {
  return text.indexOf("\n") !== -1 || text.indexOf("\r") !== -1;
}

/**
 * A clean entry's JSON, without the newline, with nothing asked of the entry but its head, turn,
 * time and `raw`. `embed`: the text is one whole JSON text as the guard's parse read it
 * (`embeddable`); then, unless it holds a line break or a lone surrogate (which UTF-8 cannot carry
 * exactly), the line is version 3: `{"v":3,"chain":...,"verdict":"ok","args":<raw>}`. Otherwise
 * version 1, the bytes `writeEntry` writes for the entry: `...,"attempts":[{"raw":<raw as a JSON
 * string>,"errors":[],"coercions":[]}],"repairs":0}`.
 */
export function writeCleanEntry(out: LineWriter, head: CleanHead, raw: string, embed: boolean): void {
  if (embed && !hasLineBreak(raw)) {
    const start = out.length;
    writeHead(out, head, 3);
    out.string(head.turn);
    writeStartedAt(out, head.startedAtMs, OK_ARGS, true);
    if (out.verbatim(raw)) {
      out.byte(0x7d); // }
      return;
    }
    out.rewind(start);
  }
  writeHead(out, head, 1);
  out.string(head.turn);
  writeStartedAt(out, head.startedAtMs, OK_RAW, true);
  out.string(raw);
  out.bytesOf(CLEAN_LINE_END);
}

/**
 * A clean resolved entry's version-3 line (clean-entry.ts `CLEAN_RESOLVED`, its text `embeddable`
 * but for its one plain resolution): `{"v":3,...,"verdict":"ok","resolved":{"path":...,"text":...,
 * "id":...,"target":...},"args":<raw>}`, standing for the version-2 line with `argumentsResolved`.
 * False, with nothing written, for a text with a line break or a lone surrogate, or a field past
 * the pieces' bound: the caller then writes version 2.
 */
export function writeEmbeddedResolved(out: LineWriter, head: CleanHead, raw: string, resolution: Resolution): boolean {
  if (hasLineBreak(raw)) return false;
  const pieces = RESOLVED_PIECES.of(resolution.path, resolution.target);
  if (pieces === undefined) return false;
  const start = out.length;
  writeHead(out, head, 3);
  out.string(head.turn);
  writeStartedAt(out, head.startedAtMs, OK_RESOLVED, true);
  out.bytesOf(pieces.head);
  out.string(resolution.text);
  out.bytesOf(ID);
  out.string(resolution.id);
  out.bytesOf(pieces.ends[0] as Uint8Array);
  if (out.verbatim(raw)) {
    out.byte(0x7d); // }
    return true;
  }
  out.rewind(start);
  return false;
}
