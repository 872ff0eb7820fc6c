// How one guarded tool's ledger entries are written: its redaction rules and its size caps.
import { hash } from "node:crypto";
import type { HttpBinding, JsonSchema } from "../contract/tool-spec.ts";
import { type Redactor, redactorFor, type RedactionOptions } from "./redact.ts";

/** Longest text (a raw attempt, `arguments`) written whole; longer ones are cut, with length and hash. */
export const DEFAULT_MAX_TEXT_CHARS = 16_384;
/** Most attempts written in one entry; the rest are counted in `attemptsOmitted`. */
export const MAX_ATTEMPTS_WRITTEN = 8;
/** Longest error message or candidate label written. */
export const MAX_MESSAGE_CHARS = 1_024;

/** The SHA-256 hex written beside a text that a cap cut or left out (raw text, arguments, a whole line). */
export function sha256(text: string | Uint8Array): string {
  return hash("sha256", text, "hex");
}

/** What a guard's entries are written with: its redaction and its caps. One per guarded tool. */
export class RecordPolicy {
  readonly redactor: Redactor | undefined;
  readonly maxTextChars: number;

  constructor(
    spec: { readonly inputSchema: JsonSchema; readonly writeOnly?: readonly string[]; readonly http?: HttpBinding },
    options: { readonly redact?: RedactionOptions; readonly maxLedgerTextChars?: number } = {},
  ) {
    this.redactor = options.redact === false ? undefined : redactorFor(spec, options.redact ?? {});
    this.maxTextChars = options.maxLedgerTextChars ?? DEFAULT_MAX_TEXT_CHARS;
    if (!(this.maxTextChars >= 64)) throw new RangeError(`toolguard: maxLedgerTextChars must be at least 64, got ${String(options.maxLedgerTextChars)}`);
  }
}
