// A ledger entry's line, written field by field into the sink's buffer (line-writer.ts). The
// entry's shape is fixed (contract/ledger-entry.ts), so the fixed fields are written as they are
// (`chain`, `startedAt` and `verdict` never need escaping), each text is escaped once as it is
// copied in, and only nested records that are rare on the clean path (errors, coercions,
// resolutions, a question) go through `JSON.stringify`. Readers parse the same value as
// `JSON.stringify(entry.toJSON())`; only the order of members may differ, which JSON does not
// give a meaning to.
import type { LedgerAttempt, Verdict } from "./ledger.ts";
import { fixed, type LineWriter } from "./line-writer.ts";

// The fixed parts of a line, encoded once. The clean call's line is mostly these: an entry of
// one attempt with no errors and no coercions is written in ten pieces.
const OPEN_V1 = fixed('{"v":1,"chain":"');
const OPEN_V2 = fixed('{"v":2,"chain":"');
const STARTED_AT = fixed(',"startedAt":"');
const RAW = fixed('{"raw":');
const NO_ERRORS = fixed(',"errors":[]');
const NO_COERCIONS = fixed(',"coercions":[]');
/** The end of an attempt that has nothing but its raw text (and maybe its finish reason). */
const CLEAN_END = fixed(',"errors":[],"coercions":[]}');
const CLOSE_ATTEMPT = fixed("}");
const NEXT_ATTEMPT = fixed(",");
const OMITTED = fixed('],"attemptsOmitted":');
const REPAIRS = fixed('],"repairs":');
const REPAIRS_AFTER_OMITTED = fixed(',"repairs":');
const RESOLVED = fixed(',"argumentsResolved":true');
const CLOSE_ENTRY = fixed("}");
const VERDICTS: readonly Verdict[] = ["open", "ok", "repaired", "rejected", "ambiguous", "error", "abandoned", "replayed", "conflict", "ledger_unavailable"];
/** `","verdict":"<verdict>","attempts":[` for every verdict. */
const VERDICT_BYTES: ReadonlyMap<Verdict, Uint8Array> = new Map(VERDICTS.map((verdict) => [verdict, fixed(`","verdict":"${verdict}","attempts":[`)]));

/** `","tool":<tool>,"turn":` of the last tool written: the same few tools come again and again. */
const toolBytes = { tool: "", bytes: fixed('","tool":"","turn":') };

function toolPart(tool: string): Uint8Array {
  if (tool !== toolBytes.tool) {
    toolBytes.bytes = Buffer.from(`","tool":${JSON.stringify(tool)},"turn":`, "utf8");
    toolBytes.tool = tool;
  }
  return toolBytes.bytes;
}

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

/** One attempt's JSON: the same value as `JSON.stringify(attempt)`. */
export function writeAttempt(out: LineWriter, attempt: LedgerAttempt): void {
  out.bytesOf(RAW);
  out.string(attempt.raw);
  if (isClean(attempt)) {
    member(out, "finishReason", attempt.finishReason);
    out.bytesOf(CLEAN_END);
    return;
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
  member(out, "resolutions", attempt.resolutions);
  member(out, "question", attempt.question);
  member(out, "guardMs", attempt.guardMs);
  out.bytesOf(CLOSE_ATTEMPT);
}

/** An attempt with nothing but its raw text and maybe its finish reason: most of them. */
function isClean(attempt: LedgerAttempt): boolean {
  return (
    attempt.errors.length === 0 &&
    attempt.coercions.length === 0 &&
    attempt.coercionsOmitted === undefined &&
    attempt.rawLength === undefined &&
    attempt.rawSha256 === undefined &&
    attempt.redacted === undefined &&
    attempt.failure === undefined &&
    attempt.absent === undefined &&
    attempt.resolutions === undefined &&
    attempt.question === undefined &&
    attempt.guardMs === undefined
  );
}

/** The fields of an entry as `ChainRecord` writes them, `argumentMembers` already JSON. */
export interface EntryFields {
  readonly v: 1 | 2;
  readonly chain: string;
  readonly tool: string;
  readonly turn: string;
  readonly startedAt: string;
  readonly verdict: Verdict;
  readonly attempts: readonly LedgerAttempt[];
  readonly attemptsOmitted: number;
  readonly repairs: number;
  /** `,"arguments":...` or `,"argumentsLength":...,"argumentsSha256":...`, or "". */
  readonly argumentMembers: string;
  /** Writes `"argumentsResolved":true` (with `v` 2). */
  readonly argumentsResolved: boolean;
  readonly idempotencyKey: string | undefined;
}

/**
 * The entry's JSON, without the newline: the same value as `JSON.stringify(entry)`. `chain`
 * (minted by chain-id.ts, or a chain identity's hex id), `startedAt` (ISO 8601) and `verdict`
 * (one of a fixed set of words) are ASCII with nothing to escape, so they are copied as they are.
 */
export function writeEntry(out: LineWriter, fields: EntryFields): void {
  out.bytesOf(fields.v === 2 ? OPEN_V2 : OPEN_V1);
  out.ascii(fields.chain);
  out.bytesOf(toolPart(fields.tool));
  out.string(fields.turn);
  out.bytesOf(STARTED_AT);
  out.ascii(fields.startedAt);
  out.bytesOf(VERDICT_BYTES.get(fields.verdict) ?? fixed(`","verdict":${JSON.stringify(fields.verdict)},"attempts":[`));
  const attempts = fields.attempts;
  for (let index = 0; index < attempts.length; index++) {
    if (index > 0) out.bytesOf(NEXT_ATTEMPT);
    writeAttempt(out, attempts[index] as LedgerAttempt);
  }
  if (fields.attemptsOmitted > 0) {
    out.bytesOf(OMITTED);
    out.number(fields.attemptsOmitted);
    out.bytesOf(REPAIRS_AFTER_OMITTED);
  } else out.bytesOf(REPAIRS);
  out.number(fields.repairs);
  if (fields.argumentMembers !== "") out.utf8(fields.argumentMembers);
  if (fields.argumentsResolved) out.bytesOf(RESOLVED);
  member(out, "idempotencyKey", fields.idempotencyKey);
  out.bytesOf(CLOSE_ENTRY);
}
