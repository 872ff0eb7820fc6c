// What `call` resolves to. Every status the model can cause is a value, never an exception, and
// each one is shaped to be handed back to the model as the tool result.
import type { JsonValue } from "./tool-spec.ts";

/** The three classes of argument failure; each has a different remedy. */
export type FailureClass = "syntactic" | "structural" | "semantic";

/** One thing wrong with the arguments, written for the model to act on. */
export interface ArgumentError {
  /** JSON Pointer into the arguments (`/line_items/0/quantity`); `""` for the whole object. */
  readonly path: string;
  /** The violated rule: a JSON Schema keyword, or a syntactic/semantic rule name. */
  readonly rule: string;
  /** What was received and what to send instead. */
  readonly message: string;
}

/** A coercion the guard applied, recorded in the outcome and the ledger. */
export interface Coercion {
  readonly path: string;
  readonly from: string;
  readonly to: number | boolean;
  readonly rule: "string->number" | "string->integer" | "string->boolean";
}

/** The arguments passed the guard and the implementation ran. */
export interface OkOutcome<Result> {
  readonly status: "ok";
  readonly tool: string;
  readonly result: Result;
  /**
   * Strict coercions applied to the attempt that succeeded: the first 100
   * (`MAX_COERCION_RECORDS`), in the order applied.
   */
  readonly coercions: readonly Coercion[];
  /** Present when more coercions were applied than `coercions` lists: how many more. */
  readonly coercionsOmitted?: number;
  /** Attempts in this chain, the successful one included (1 when no repair was needed). */
  readonly attempts: number;
  /**
   * The call's idempotency key: by default derived from the validated, canonicalised arguments;
   * with `idempotency.keyOf`, the intent it names.
   */
  readonly idempotencyKey: string;
  /** True when an idempotency store answered with the result of an earlier run of the same call. */
  readonly replayed?: boolean;
}

/** The arguments failed; the model gets this envelope and may repair once. */
export interface ValidationFailedOutcome {
  readonly status: "validation_failed";
  readonly tool: string;
  readonly failure: FailureClass;
  readonly errors: readonly ArgumentError[];
  /** The resend protocol: fix every listed field, send the complete object. */
  readonly detail: string;
  readonly attempts: number;
  /**
   * Repairs the chain still allows, the one this envelope asks for included: at 1, a failure
   * of the next attempt is refused with `arguments_rejected`.
   */
  readonly repairsLeft: number;
}

/** The repair budget is spent: the conversation must ask the user, not retry. */
export interface ArgumentsRejectedOutcome {
  readonly status: "arguments_rejected";
  readonly tool: string;
  readonly failure: FailureClass;
  /** The errors of the last attempt. */
  readonly errors: readonly ArgumentError[];
  readonly detail: string;
  readonly attempts: number;
}

/** A reference matched several real things; the model must pick one of them. */
export interface AmbiguousReferenceOutcome {
  readonly status: "ambiguous_reference";
  readonly tool: string;
  /** JSON Pointer of the reference field. */
  readonly field: string;
  readonly candidates: readonly { readonly id: string; readonly label: string }[];
  readonly detail: string;
  readonly attempts: number;
}

/**
 * The call's idempotency key already ran, or is running, with other arguments. Nothing ran: the
 * same key with a different payload is an alarm, never a silent replay.
 */
export interface IdempotencyConflictOutcome {
  readonly status: "idempotency_conflict";
  readonly tool: string;
  readonly idempotencyKey: string;
  readonly detail: string;
  readonly attempts: number;
}

/**
 * Fail-closed mode only (`implement(impl, { failClosed: true })`): the arguments passed, but the
 * ledger could not be written, so the implementation was not called. Not the model's fault:
 * retrying the same call later is right.
 */
export interface LedgerUnavailableOutcome {
  readonly status: "ledger_unavailable";
  readonly tool: string;
  readonly detail: string;
  readonly attempts: number;
}

export type Outcome<Result> =
  | OkOutcome<Result>
  | ValidationFailedOutcome
  | ArgumentsRejectedOutcome
  | AmbiguousReferenceOutcome
  | IdempotencyConflictOutcome
  | LedgerUnavailableOutcome;

/** The outcomes that go back to the model as a correction or a refusal. */
export type FailedOutcome = Exclude<Outcome<never>, OkOutcome<never>>;

export type { JsonValue };
