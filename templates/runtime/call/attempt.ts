// Steps 1-3 of a call, synchronously: parse, coerce, validate, and on failure explain. Nothing is
// awaited and nothing is remembered here: the result says what the attempt was, and the guard
// decides what it means for the turn.
import type { ArgumentError, Coercion, FailureClass } from "../contract/outcome.ts";
import type { HazardWalk, JsonValue, StandaloneValidator, ToolSpec } from "../contract/tool-spec.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import type { Redactor } from "../ledger/redact.ts";
import { applyCoercions, coerceString, type CoercionPlan, type StringReader } from "../coerce/coerce.ts";
import { dropAbsentNulls } from "../coerce/absent-nulls.ts";
import { explainSchemaErrors, finish } from "../explain/explain.ts";
import { hidden } from "../explain/text.ts";
import { hazardFailure, isCutOff, parseArguments, unparsable, type ParseFailure, type ParseLimits } from "../parse/parse.ts";
import { keyFlagged, walkedClean, walkedOnlyDeclaredKeys } from "../parse/json-hazards.ts";
import { NO_ERRORS_KEYS_DECLARED, NO_ERRORS_PARSED } from "../ledger/declared-keys.ts";

/**
 * The guard's replaceable parts. Production always uses `STRICT_PARTS`; the seam exists so the
 * mutation tests can plant a defect (skip validation, unbound the budget, loosen coercion) and
 * show that the test suite catches it. Not exported from the package.
 */
export interface GuardParts {
  readonly validate: (validator: StandaloneValidator, value: unknown) => boolean;
  readonly readString: StringReader;
  /** Failed attempts a turn allows, given whether its first failure was cut off by the provider. */
  readonly maxAttempts: (firstFailureTruncated: boolean) => number;
}

export const STRICT_PARTS: GuardParts = {
  validate: (validator, value) => validator(value),
  readString: coerceString,
  maxAttempts: (truncated) => (truncated ? 3 : 2),
};

/** What one tool's attempts are checked with, fixed when the tool is bound. */
export interface AttemptSetup {
  readonly spec: ToolSpec;
  readonly parts: GuardParts;
  readonly limits: ParseLimits;
  readonly maxErrors: number;
  readonly plan: CoercionPlan;
  /**
   * The coercion step's first look: whether a string sits at one of the plan's places (the
   * generated `HazardWalk.coercible`, else the runtime's tree of them); none without a plan.
   */
  readonly coercible: ((value: unknown) => boolean) | undefined;
  /** Read the clock for each attempt's `guardMs` (off by default: no clock reads on a call's path). */
  readonly timing: boolean;
  /** The check of the arguments that go into the request's URL path; absent without path parameters (plan.ts). */
  readonly pathCheck: ((args: unknown) => readonly ArgumentError[] | undefined) | undefined;
  /** The tool's generated hazard walk, when it serves the depth limit (`hazardWalkFor`). */
  readonly hazardWalk: HazardWalk["walk"] | undefined;
  /** Which values are secret: an envelope never quotes them back (`shownToModel`). */
  readonly secrets: Redactor;
}

/** The spec's generated hazard walk, if a value it passes can be no deeper than `limits` allow. */
export function hazardWalkFor(spec: ToolSpec, limits: ParseLimits): HazardWalk["walk"] | undefined {
  return spec.hazardWalk !== undefined && spec.hazardWalk.depth <= limits.maxDepth ? spec.hazardWalk.walk : undefined;
}

export type AttemptResult =
  | { readonly ok: true; readonly value: unknown; readonly record: LedgerAttempt }
  | {
      readonly ok: false;
      readonly failure: FailureClass;
      readonly errors: readonly ArgumentError[];
      /** Cut off at the provider's token limit, by its finish reason: earns a second repair. */
      readonly truncated: boolean;
      /** The text looks cut off (the envelope says so), whether or not the provider said it was. */
      readonly looksTruncated: boolean;
      readonly record: LedgerAttempt;
      /** The errors follow from the text alone (checking `record.raw` again gives them): see stored-attempt.ts. */
      readonly derivable: boolean;
    };

/** A failed attempt, as the guard counts it against the turn. */
export type FailedAttempt = Extract<AttemptResult, { readonly ok: false }>;

/** A passed attempt: the arguments and their record, handed on as they are (no copy per step). */
export type PassedAttempt = Extract<AttemptResult, { readonly ok: true }>;

const NO_COERCIONS: readonly Coercion[] = Object.freeze([]);
const NO_PATHS: readonly string[] = Object.freeze([]);

/** What an attempt is checked against besides its text: the caller's `CallContext` serves. */
export interface AttemptContext {
  /** The provider's finish reason: `length` (or its spellings) makes a cut-off text earn a repair. */
  readonly finishReason?: string | undefined;
  /** Where a null stands for an omitted field (`CallContext.absentNulls`), dropped before validation. */
  readonly absentNulls?: readonly string[] | undefined;
}

/**
 * The turn's steps, which the guard takes once an attempt is checked (guard.ts): `failed` bounds
 * a failed attempt by the turn's repair budget, refuses it past the budget (or in a turn refused
 * already) and records it; `passed` refuses a passed attempt in a refused turn, else records it
 * and hands it on. Each gets the call's own context and the attempt's own result, so no object
 * is made per call to carry them.
 */
export interface AttemptTurn<Context extends AttemptContext, Out> {
  failed(context: Context, attempt: FailedAttempt): Out;
  passed(context: Context, attempt: PassedAttempt): Out;
}

/**
 * The one place that orders a call's steps, in the brief's order: parse, coerce, validate (the
 * hazard check and the path check come with it), explain, which are `checkAttempt`'s (`attempt`
 * below, in that order); then bound, refuse and record, which are the turn's. Synchronous.
 */
export function guardAttempt<Context extends AttemptContext, Out>(raw: unknown, context: Context, setup: AttemptSetup, turn: AttemptTurn<Context, Out>): Out {
  const checked = checkAttempt(raw, context, setup);
  return checked.ok ? turn.passed(context, checked) : turn.failed(context, checked);
}

/** Parse, coerce, validate, explain. Never throws: a defect in the guard itself still gives the model an answer, and is loud. */
export function checkAttempt(raw: unknown, context: AttemptContext, setup: AttemptSetup): AttemptResult {
  try {
    return attempt(raw, context, setup);
  } catch (error) {
    process.emitWarning(`toolguard: could not check the arguments of ${setup.spec.name}: ${String(error)}`, { type: "ToolguardWarning" });
    const errors = [{ path: "", rule: "unreadable", message: "the arguments could not be read; send one JSON object that matches the schema" }];
    const facts = {
      text: typeof raw === "string" ? raw : "",
      finishReason: context.finishReason,
      started: Number.NaN,
      derivable: false,
      coercions: NO_COERCIONS,
      omitted: 0,
    };
    return failed(facts, "syntactic", errors);
  }
}

/** Parse, coerce, validate (then the hazard and path checks), explain: `guardAttempt`'s first steps. */
function attempt(raw: unknown, context: AttemptContext, setup: AttemptSetup): AttemptResult {
  const { spec, parts } = setup;
  const { finishReason, absentNulls } = context;
  const started = setup.timing ? performance.now() : Number.NaN;
  // Parse. With a generated walk, a text's hazards are checked after the validator, which makes the walk
  // cheap (closed objects, known types); a hazard is still reported before any schema error.
  const walk = absentNulls === undefined ? setup.hazardWalk : undefined;
  // A parsed value is checked for other hazards than its text, a text over the limit is cut, and
  // dropped nulls depend on the call's context: none of those attempts follows from its text alone.
  const derivable = typeof raw === "string" && raw.length <= setup.limits.maxBytes && absentNulls === undefined;
  let text: string;
  let value: unknown;
  let hazardsPending: boolean;
  if (walk !== undefined && derivable && !isCutOff(finishReason)) {
    // The common call: a text within the limit whose hazards the tool's walk checks. Parsed here,
    // as `parseArguments` parses it (and no more), without its result object on the way.
    text = raw as string;
    hazardsPending = true;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return syntaxFailed(unparsable(text, error, finishReason, setup.limits), { finishReason, started, derivable }, setup);
    }
  } else {
    const parsed = parseArguments(raw, finishReason, setup.limits, walk !== undefined);
    if (!parsed.ok) return syntaxFailed(parsed, { finishReason, started, derivable }, setup);
    text = parsed.text;
    value = parsed.value;
    hazardsPending = parsed.hazardsPending === true;
  }
  const absent = absentNulls ? dropAbsentNulls(value, absentNulls) : NO_PATHS;
  // Coerce. Rule 2's order: coerce, then validate. The coercion table lists only places where the
  // schema rejects strings, so on a document that is valid as sent the walk finds nothing and
  // costs a type check per place. Validating first instead made a document of many coercible
  // strings fail once (an error per string, the call's dearest step) before it was coerced and
  // validated again. `value` is the guard's own copy, fresh from JSON.parse. The plan is applied
  // only when a string sits at one of its places: the only thing a coercion reads.
  let coercions = NO_COERCIONS;
  let omitted = 0;
  if (setup.coercible?.(value)) ({ records: coercions, omitted } = applyCoercions(value, setup.plan, parts.readString));
  // Validate, then the hazards the parse left to the tool's walk.
  const valid = parts.validate(spec.validate, value);
  const clean = hazardsPending && valid && walk !== undefined && walkedClean(text, value, walk, setup.limits.maxDepth);
  // A clean walk that met only declared keys lets the ledger keep the text without its secret-name scan.
  const keysDeclared = clean && walkedOnlyDeclaredKeys();
  // A failed value's secret-key check (what the envelope may quote) is asked on the hazard walk's
  // way, where keys alone decide it, rather than walking the value again: `secretKey` is its answer.
  const keyTest = valid ? undefined : setup.secrets.secretKeyTest();
  let secretKey: boolean | undefined;
  if (hazardsPending && !clean) {
    const hazardous = hazardFailure(text, value, false, keyTest === undefined ? setup.limits : { maxDepth: setup.limits.maxDepth, keyTest });
    // A hazard is reported before any schema error, and without the coercions the schema step made.
    if (hazardous)
      return failed({ text, finishReason, started, derivable, coercions: NO_COERCIONS, omitted: 0 }, "syntactic", finish(hazardous.errors, setup.maxErrors));
    if (keyTest !== undefined) secretKey = keyFlagged();
  }
  // Explain.
  if (!valid) {
    const errors = explainSchemaErrors(spec.validate.errors ?? [], shownToModel(value, setup.secrets, secretKey), spec.hints, setup.maxErrors);
    return failed({ text, finishReason, started, derivable, coercions, omitted }, "structural", errors);
  }
  // After the schema (a correction never arrives before the schema's own), before anything runs.
  const unsafePath = setup.pathCheck === undefined ? undefined : setup.pathCheck(value);
  if (unsafePath !== undefined) return failed({ text, finishReason, started, derivable, coercions, omitted }, "structural", unsafePath);
  // The record the turn keeps. `resolutions` is set by the reference step on this fresh record (one shape, no copy).
  const listed = { raw: text, finishReason, errors: keysDeclared ? NO_ERRORS_KEYS_DECLARED : NO_ERRORS_PARSED, coercions, resolutions: undefined };
  const base = omitted === 0 ? listed : { ...listed, coercionsOmitted: omitted };
  const timed = setup.timing ? { ...base, guardMs: performance.now() - started } : base;
  const record: LedgerAttempt = absent.length === 0 ? timed : { ...timed, absent };
  return { ok: true, value, record };
}

/** A text that did not parse (or broke a limit), as the failed attempt (`call`: the call's facts the text does not hold). */
function syntaxFailed(parsed: ParseFailure, call: Pick<AttemptFacts, "finishReason" | "started" | "derivable">, setup: AttemptSetup): AttemptResult {
  const facts = { text: parsed.text, finishReason: call.finishReason, started: call.started, derivable: call.derivable, coercions: NO_COERCIONS, omitted: 0 };
  return failed(facts, "syntactic", finish(unquotedSecrets(parsed.errors, setup.secrets), setup.maxErrors), parsed.truncated);
}

// What the syntax diagnosis quotes of a value that is not JSON (`unquoted text "hunter2"`).
const QUOTED_TOKEN = /(unquoted text|a malformed number) "(?:[^"\\]|\\.)*"/g;

/**
 * A syntax error at a secret location (a secret-named key, a `writeOnly` property, a header or
 * cookie parameter) without the piece of the value it would quote: `{"password": hunter2}` must
 * not come back as `unquoted text "hunter2"`. The rule and the place still tell the model what to fix.
 */
function unquotedSecrets(errors: readonly ArgumentError[], secrets: Redactor): readonly ArgumentError[] {
  if (!errors.some((error) => error.path !== "" && secrets.isSecretPath(error.path))) return errors;
  return errors.map((error) =>
    error.path !== "" && secrets.isSecretPath(error.path)
      ? { ...error, message: error.message.replace(QUOTED_TOKEN, "$1 (not shown: a secret field)") }
      : error,
  );
}

/**
 * The value the envelope's messages quote from: `value` itself, or a copy with every secret
 * value (a secret-named key, a `writeOnly` property, a header or cookie parameter) replaced by
 * a `HiddenValue` of its type (a null stays null), so a message never echoes a password back.
 * Copied only when the value holds a secret: its keys are asked (each key's answer is kept),
 * not its text scanned for secret names, which cost more than the rest of the redaction.
 * `secretKey`: whether the value holds one, when the hazard walk asked its keys already.
 */
function shownToModel(value: unknown, secrets: Redactor, secretKey?: boolean): unknown {
  if (value === null || typeof value !== "object" || !(secretKey ?? secrets.holdsSecret(value as JsonValue))) return value;
  const copy = structuredClone(value) as JsonValue;
  return secrets.valueInPlace(copy, hidden) === 0 ? value : copy;
}

/**
 * What a failed attempt learnt on its way, in one object instead of a positional chain: its text,
 * the provider's finish reason, when it started (NaN without `timing`), whether its errors follow
 * from the text alone, and the coercions it made (`omitted`: those left out of the list).
 */
interface AttemptFacts {
  readonly text: string;
  readonly finishReason: string | undefined;
  readonly started: number;
  readonly derivable: boolean;
  readonly coercions: readonly Coercion[];
  readonly omitted: number;
}

function failed(facts: AttemptFacts, failure: FailureClass, errors: readonly ArgumentError[], looksTruncated: boolean = false): AttemptResult {
  const { text: raw, finishReason, started, coercions, omitted: coercionsOmitted, derivable } = facts;
  // The budget's extra repair needs the provider's word: text that merely looks cut off could be
  // written that way on purpose, to earn a third attempt.
  const truncated = looksTruncated && isCutOff(finishReason);
  const listed: LedgerAttempt = Number.isNaN(started)
    ? { raw, finishReason, failure, errors, coercions }
    : { raw, finishReason, failure, errors, coercions, guardMs: performance.now() - started };
  const record = coercionsOmitted === 0 ? listed : { ...listed, coercionsOmitted };
  return { ok: false, failure, errors, truncated, looksTruncated, record, derivable };
}
