// A ledger entry's line, written field by field into the sink's buffer (line-writer.ts). The
// entry's shape is fixed (contract/ledger-entry.ts), so the fixed fields are written as they are
// (`chain`, `startedAt` and `verdict` never need escaping), each text is escaped once as it is
// copied in, and only nested records that are rare on the clean path (errors, coercions,
// resolutions, a question) go through `JSON.stringify`. Readers parse the same value as
// `JSON.stringify(entry.toJSON())`; only the order of members may differ, which JSON does not
// give a meaning to.
import type { Resolution } from "../contract/resolution.ts";
import type { LedgerAttempt, Verdict } from "./ledger.ts";
import { recordsOnlyRaw } from "./clean-entry.ts";
import { type CleanHead, embeddable, embeddableResolved, writeCleanEntry, writeEmbeddedResolved } from "./clean-line.ts";
import { writeStartedAt } from "./iso-time.ts";
import { writeHead } from "./line-head.ts";
import { fixed, type LineWriter } from "./line-writer.ts";
import { ResolutionPieceTable } from "./resolution-pieces.ts";

// The fixed parts of a line, encoded once, and joined where they always meet: a clean call's
// line (one attempt, no errors, no coercions) is three fixed pieces around the turn and the raw
// text, the chain id's counter and the time's milliseconds written over the first two's zeros.
const NEXT_RAW = fixed(',{"raw":');
const NO_ERRORS = fixed(',"errors":[]');
const NO_COERCIONS = fixed(',"coercions":[]');
/**
 * How an attempt's bytes end, which its caller decides: the attempt alone (`}`), the list and the
 * `repairs` name after it (the last attempt), or the whole line after `"repairs":0` (nothing follows
 * the count), with `argumentsResolved` or without. One piece per end, so a common line ends in one copy.
 */
const END_ATTEMPT = 0;
const END_LIST = 1;
const END_LINE = 2;
const END_LINE_RESOLVED = 3;
type End = typeof END_ATTEMPT | typeof END_LIST | typeof END_LINE | typeof END_LINE_RESOLVED;
/** What follows an attempt's last member for each `End`. */
const ENDS = ["}", '}],"repairs":', '}],"repairs":0}', '}],"repairs":0,"argumentsResolved":true}'] as const;
/** A clean attempt's end (`,"errors":[],"coercions":[]` and the `End`), per `End`. */
const CLEAN_ENDS: readonly Uint8Array[] = ENDS.map((end) => fixed(`,"errors":[],"coercions":[]${end}`));
/** A resolved-only attempt's fixed pieces, per reference field, with one tail per `End`. */
const RESOLUTION_PIECES = new ResolutionPieceTable(ENDS);
const CLOSE_ATTEMPT = fixed("}");
const OMITTED = fixed('],"attemptsOmitted":');
const REPAIRS = fixed('],"repairs":');
const REPAIRS_AFTER_OMITTED = fixed(',"repairs":');
const RESOLVED = fixed(',"argumentsResolved":true');
const CLOSE_ENTRY = fixed("}");
const VERDICTS: readonly Verdict[] = ["open", "ok", "repaired", "rejected", "ambiguous", "error", "abandoned", "replayed", "conflict", "ledger_unavailable"];
/** `","verdict":"<verdict>","attempts":[` for every verdict, for an entry with no attempt. */
const VERDICT_BYTES: ReadonlyMap<Verdict, Uint8Array> = new Map(VERDICTS.map((verdict) => [verdict, fixed(`","verdict":"${verdict}","attempts":[`)]));
/** The same with the first attempt's `{"raw":`: what nearly every line has there. */
const VERDICT_RAW_BYTES: ReadonlyMap<Verdict, Uint8Array> = new Map(
  VERDICTS.map((verdict) => [verdict, fixed(`","verdict":"${verdict}","attempts":[{"raw":`)]),
);

/** `,"name":<json>`, or nothing for `undefined` (as `JSON.stringify` leaves such a member out). */
function member(out: LineWriter, name: string, value: unknown): void {
  if (value === undefined) return;
  out.ascii(`,"${name}":`);
  if (typeof value === "string") out.string(value);
  else if (typeof value === "number") out.number(value);
  else out.json(value);
}

/** `member` for an array; the empty one, the common case, as fixed bytes. */
function listMember(out: LineWriter, name: string, value: readonly unknown[] | undefined, empty: Uint8Array): void {
  if (value === undefined) return;
  if (value.length === 0) out.bytesOf(empty);
  else {
    out.ascii(`,"${name}":`);
    out.json(value);
  }
}

/**
 * One attempt's JSON (the same value as `JSON.stringify(attempt)`) after its `{"raw":`, which the
 * caller wrote (joined with what precedes it), ended as `end` says; returns the end written (an
 * attempt that is neither clean nor resolved-only writes its own `}`: `END_ATTEMPT`).
 */
function writeAttemptRest(out: LineWriter, attempt: LedgerAttempt, end: End): End {
  out.string(attempt.raw);
  const shape = shapeOf(attempt);
  // One resolution as the resolve step makes it: its fixed members are pieces kept per field.
  const resolution = shape === RESOLVED_ONE ? ((attempt.resolutions as readonly Resolution[])[0] as Resolution) : undefined;
  const pieces = resolution === undefined ? undefined : RESOLUTION_PIECES.of(resolution.path, resolution.target);
  if (shape === CLEAN || pieces !== undefined) {
    member(out, "finishReason", attempt.finishReason);
    if (pieces === undefined) out.bytesOf(CLEAN_ENDS[end] as Uint8Array);
    else {
      const { text, id } = resolution as Resolution;
      out.bytesOf(pieces.head);
      out.string(text);
      out.bytesOf(ID);
      out.string(id);
      out.bytesOf(pieces.ends[end] as Uint8Array);
    }
    return end;
  }
  member(out, "rawLength", attempt.rawLength);
  member(out, "rawSha256", attempt.rawSha256);
  member(out, "redacted", attempt.redacted);
  member(out, "finishReason", attempt.finishReason);
  member(out, "failure", attempt.failure);
  listMember(out, "errors", attempt.errors, NO_ERRORS);
  listMember(out, "coercions", attempt.coercions, NO_COERCIONS);
  member(out, "coercionsOmitted", attempt.coercionsOmitted);
  member(out, "absent", attempt.absent);
  if (attempt.resolutions !== undefined) writeResolutions(out, attempt.resolutions);
  member(out, "question", attempt.question);
  member(out, "guardMs", attempt.guardMs);
  out.bytesOf(CLOSE_ATTEMPT);
  return END_ATTEMPT;
}

const RESOLUTIONS_PATH = fixed(',"resolutions":[{"path":');
const NEXT_PATH = fixed(',{"path":');
const TEXT = fixed(',"text":');
const ID = fixed(',"id":');
const TARGET = fixed(',"target":');
const CLOSE_LIST = fixed("}]");

/**
 * `,"resolutions":[...]`, each written field by field (a resolved call's line has one per
 * reference field): the runtime makes every resolution as `{path, text, id, target}`, four
 * strings. Anything else (a sink user's own record) goes through `JSON.stringify`.
 */
function writeResolutions(out: LineWriter, resolutions: readonly Resolution[]): void {
  if (resolutions.length === 0 || !resolutions.every(isPlainResolution)) {
    member(out, "resolutions", resolutions);
    return;
  }
  for (let index = 0; index < resolutions.length; index++) {
    const resolution = resolutions[index] as Resolution;
    out.bytesOf(index === 0 ? RESOLUTIONS_PATH : NEXT_PATH);
    out.string(resolution.path);
    out.bytesOf(TEXT);
    out.string(resolution.text);
    out.bytesOf(ID);
    out.string(resolution.id);
    out.bytesOf(TARGET);
    out.string(resolution.target);
    out.bytesOf(index === resolutions.length - 1 ? CLOSE_LIST : CLOSE_ATTEMPT);
  }
}

/**
 * Four strings, and nothing else `JSON.stringify` would write: a resolution as the resolve step
 * makes it. (`Object.keys` lists its own members, at under half the cost of counting them with
 * `for...in`; the resolve step's are in the line's order, any other order is looked for.)
 */
export function isPlainResolution(resolution: Resolution): boolean {
  const keys = Object.keys(resolution);
  return (
    keys.length === 4 &&
    ((keys[0] === "path" && keys[1] === "text" && keys[2] === "id" && keys[3] === "target") ||
      (keys.includes("path") && keys.includes("text") && keys.includes("id") && keys.includes("target"))) &&
    typeof resolution.path === "string" &&
    typeof resolution.text === "string" &&
    typeof resolution.id === "string" &&
    typeof resolution.target === "string" &&
    typeof (resolution as { toJSON?: unknown }).toJSON !== "function"
  );
}

/** `shapeOf`'s answers: nothing but the raw text (and maybe the finish reason); that and one plain resolution; anything else. */
const CLEAN = 0;
const RESOLVED_ONE = 1;
const OTHER = 2;

/** Which of the two common shapes an attempt has, if any: most attempts are clean, a resolved call's is `RESOLVED_ONE`. */
function shapeOf(attempt: LedgerAttempt): typeof CLEAN | typeof RESOLVED_ONE | typeof OTHER {
  if (!recordsOnlyRaw(attempt)) return OTHER;
  const resolutions = attempt.resolutions;
  if (resolutions === undefined) return CLEAN;
  return resolutions.length === 1 && isPlainResolution(resolutions[0] as Resolution) ? RESOLVED_ONE : OTHER;
}

/** What `writeEntry` reads of an entry: `ChainRecord`'s own fields and getters, nothing copied. */
export interface EntryHead extends CleanHead {
  readonly verdict: Verdict;
  readonly repairs: number;
  readonly idempotencyKey: string | undefined;
}

/**
 * What serialising the entry decided beside its attempts (caps, arguments): chain-record.ts works
 * it out once per entry, and shares one for the entries that have none of it.
 */
export interface EntryBody {
  /** Attempts left out (`attemptsOmitted`), 0 for none. */
  readonly omitted: number;
  /** `,"arguments":...` or `,"argumentsLength":...,"argumentsSha256":...`, or "". */
  readonly argumentMembers: string;
  /** Writes `"argumentsResolved":true`, and `v` 2. */
  readonly resolved: boolean;
}

/** `","verdict":"ok","attempts":[{"raw":`: a clean entry's piece after its time. */
const OK_RAW = VERDICT_RAW_BYTES.get("ok") as Uint8Array;

/**
 * A clean resolved entry's JSON (clean-entry.ts `cleanShapeOf`: as `writeCleanEntry`'s, with one
 * plain resolution its arguments apply, `argumentsResolved` and `v` 2), without the newline: the
 * bytes `writeEntry` writes for it. False, with nothing written, past the resolution pieces'
 * bound (the caller then writes the entry through `writeEntry`).
 */
export function writeResolvedEntry(out: LineWriter, head: EntryHead, raw: string, resolution: Resolution): boolean {
  const pieces = RESOLUTION_PIECES.of(resolution.path, resolution.target);
  if (pieces === undefined) return false;
  writeHead(out, head, 2);
  out.string(head.turn);
  writeStartedAt(out, head.startedAtMs, OK_RAW, true);
  out.string(raw);
  out.bytesOf(pieces.head);
  out.string(resolution.text);
  out.bytesOf(ID);
  out.string(resolution.id);
  out.bytesOf(pieces.ends[END_LINE_RESOLVED] as Uint8Array);
  return true;
}

/**
 * A clean entry that reaches this writer (its attempts were read first) as the shortcut writes it,
 * version 3 (clean-line.ts); false, nothing written, for any other, or a text kept escaped.
 */
function embedded(out: LineWriter, head: EntryHead, attempts: readonly LedgerAttempt[], body: EntryBody): boolean {
  if (
    attempts.length !== 1 ||
    body.omitted !== 0 ||
    body.argumentMembers !== "" ||
    head.verdict !== "ok" ||
    head.repairs !== 0 ||
    head.idempotencyKey !== undefined
  )
    return false;
  const only = attempts[0] as LedgerAttempt;
  if (!body.resolved) {
    if (!embeddable(only)) return false;
    writeCleanEntry(out, head, only.raw, true);
    return true;
  }
  const resolution = only.resolutions?.[0] as Resolution;
  return embeddableResolved(only) && isPlainResolution(resolution) && writeEmbeddedResolved(out, head, only.raw, resolution);
}

/**
 * The entry's JSON, without the newline: the same value as `JSON.stringify(entry)`, with
 * `attempts` as written (redacted and capped). `chain` (minted by chain-id.ts, or a chain
 * identity's hex id), `startedAt` (ISO 8601) and `verdict` (one of a fixed set of words) are
 * ASCII with nothing to escape, so they are copied as they are.
 */
export function writeEntry(out: LineWriter, head: EntryHead, attempts: readonly LedgerAttempt[], body: EntryBody): void {
  if (embedded(out, head, attempts, body)) return;
  writeHead(out, head, body.resolved ? 2 : 1);
  out.string(head.turn);
  const count = attempts.length;
  const omitted = body.omitted > 0;
  const repairs = head.repairs;
  // The last attempt ends the list unless `attemptsOmitted` follows it, and the line too when
  // nothing follows `"repairs":0` but maybe `argumentsResolved`.
  const last: End = omitted
    ? END_ATTEMPT
    : repairs !== 0 || body.argumentMembers !== "" || head.idempotencyKey !== undefined
      ? END_LIST
      : body.resolved
        ? END_LINE_RESOLVED
        : END_LINE;
  let ended: End = END_ATTEMPT;
  // The time and what follows it up to the first raw text, in one piece per second and verdict.
  const verdict = count === 0 ? VERDICT_BYTES.get(head.verdict) : VERDICT_RAW_BYTES.get(head.verdict);
  writeStartedAt(
    out,
    head.startedAtMs,
    verdict ?? fixed(`","verdict":${JSON.stringify(head.verdict)},"attempts":[${count === 0 ? "" : '{"raw":'}`),
    verdict !== undefined,
  );
  if (count !== 0) {
    for (let index = 0; index < count; index++) {
      if (index > 0) out.bytesOf(NEXT_RAW);
      ended = writeAttemptRest(out, attempts[index] as LedgerAttempt, index === count - 1 ? last : END_ATTEMPT);
    }
    if (ended === END_LINE || ended === END_LINE_RESOLVED) return;
  }
  if (omitted) {
    out.bytesOf(OMITTED);
    out.number(body.omitted);
    out.bytesOf(REPAIRS_AFTER_OMITTED);
  } else if (ended !== END_LIST) out.bytesOf(REPAIRS);
  out.number(repairs);
  if (body.argumentMembers !== "") out.utf8(body.argumentMembers);
  if (body.resolved) out.bytesOf(RESOLVED);
  member(out, "idempotencyKey", head.idempotencyKey);
  out.bytesOf(CLOSE_ENTRY);
}
