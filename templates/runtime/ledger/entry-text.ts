// A ledger entry's JSON text, written field by field. The entry's shape is fixed (contract/
// ledger-entry.ts), so its text is concatenated from the fields' own texts instead of building
// a plain object for `JSON.stringify` to walk: strings and nested values still go through
// `JSON.stringify` (native, and exact about escaping), but the entry and its attempts do not.
// Readers parse the same value either way; only the order of members may differ from
// `JSON.stringify(entry.toJSON())`, which JSON does not give a meaning to.
import type { LedgerAttempt, Verdict } from "./ledger.ts";

/** `JSON.stringify` of a value known not to be `undefined`: a string, a number, an array... */
const json = JSON.stringify as (value: unknown) => string;

/** `,"name":<json>`, or nothing for `undefined` (as `JSON.stringify` leaves such a member out). */
function member(name: string, value: unknown): string {
  return value === undefined ? "" : `,"${name}":${json(value)}`;
}

/** `member` for an array; the empty one, the common case, without a call. */
function listMember(name: string, value: readonly unknown[] | undefined): string {
  return value === undefined ? "" : value.length === 0 ? `,"${name}":[]` : `,"${name}":${json(value)}`;
}

/** One attempt's JSON text: the same value as `JSON.stringify(attempt)`. */
export function attemptText(attempt: LedgerAttempt): string {
  return (
    `{"raw":${json(attempt.raw)}` +
    member("rawLength", attempt.rawLength) +
    member("rawSha256", attempt.rawSha256) +
    member("redacted", attempt.redacted) +
    member("finishReason", attempt.finishReason) +
    member("failure", attempt.failure) +
    listMember("errors", attempt.errors) +
    listMember("coercions", attempt.coercions) +
    member("coercionsOmitted", attempt.coercionsOmitted) +
    member("absent", attempt.absent) +
    member("resolutions", attempt.resolutions) +
    member("question", attempt.question) +
    member("guardMs", attempt.guardMs) +
    "}"
  );
}

/** The fields of an entry as `ChainRecord` writes them, `argumentsText` already JSON. */
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

let lastTool = "";
let lastToolJson = '""';

/** A tool's name as JSON: the same few names come again and again, so the last one is kept. */
function toolJson(tool: string): string {
  if (tool !== lastTool) {
    lastToolJson = json(tool);
    lastTool = tool;
  }
  return lastToolJson;
}

/**
 * The entry's JSON text: the same value as `JSON.stringify(entry)`. `chain` (minted by
 * chain-id.ts: hex digits and dashes), `startedAt` (ISO 8601) and `verdict` (one of a fixed set
 * of words) never need escaping.
 */
export function entryText(fields: EntryFields): string {
  let attempts = "";
  for (const attempt of fields.attempts) attempts += attempts === "" ? attemptText(attempt) : `,${attemptText(attempt)}`;
  return (
    `{"v":${fields.v},"chain":"${fields.chain}","tool":${toolJson(fields.tool)},"turn":${json(fields.turn)},"startedAt":"${fields.startedAt}","verdict":"${fields.verdict}","attempts":[${attempts}]` +
    (fields.attemptsOmitted > 0 ? `,"attemptsOmitted":${fields.attemptsOmitted}` : "") +
    `,"repairs":${fields.repairs}${fields.argumentMembers}` +
    (fields.argumentsResolved ? `,"argumentsResolved":true` : "") +
    member("idempotencyKey", fields.idempotencyKey) +
    "}"
  );
}
