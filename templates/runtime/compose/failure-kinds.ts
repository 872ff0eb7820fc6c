// Which side a failure belongs to, for the resilience layers around a guarded tool. The
// model's mistakes come back from `call` as values (an outcome); the dependency's come back as
// a thrown error. Breakers, retries, fallbacks and timeouts must act on the second kind only:
// a rejected call touched no dependency, and counting it would poison the breaker's signal.
//
// Errors are recognised through one registry per process, shared by every generated package's
// copy of this runtime (two packages each carry their own classes, so `instanceof` would not
// see across them). The registry holds the errors weakly and never changes them.
import type { FailedOutcome, Outcome } from "../contract/outcome.ts";

/** Where a dependency failure came from. */
export type DependencySource = "implementation" | "resolver";

const REGISTRY_KEY = Symbol.for("toolguard.dependency-failures");
type Registry = WeakMap<object, DependencySource>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY_KEY]?: Registry };
  return (holder[REGISTRY_KEY] ??= new WeakMap());
}

/**
 * Marks an error thrown by an implementation or a resolver before the guard rethrows it. A
 * thrown non-object (`throw "boom"`) cannot be remembered, so it is wrapped in an `Error` whose
 * `cause` is the value thrown. Returns what the guard throws.
 */
export function markDependencyFailure(error: unknown, source: DependencySource): unknown {
  const thrown =
    error !== null && (typeof error === "object" || typeof error === "function")
      ? error
      : new Error(`toolguard: the ${source} threw ${String(error)}`, { cause: error });
  if (!registry().has(thrown)) registry().set(thrown, source);
  return thrown;
}

/**
 * True for an error that `call` threw because the tool's implementation or one of its resolvers
 * failed: the failures a breaker may count, a retry may repeat and a fallback may answer.
 */
export function isDependencyFailure(error: unknown): boolean {
  return error !== null && typeof error === "object" && registry().has(error);
}

/** `"implementation"` or `"resolver"` for a dependency failure, `undefined` for anything else. */
export function dependencySource(error: unknown): DependencySource | undefined {
  return error !== null && typeof error === "object" ? registry().get(error) : undefined;
}

const ARGUMENT_STATUSES: ReadonlySet<string> = new Set(["validation_failed", "arguments_rejected", "ambiguous_reference", "idempotency_conflict"]);

/**
 * True for an outcome the model caused (its arguments were wrong, ambiguous, or in conflict
 * with an earlier call under the same key), and for the `ArgumentFailureError` that `unwrap`
 * throws for one. None of these touched a dependency.
 */
export function isArgumentFailure(value: unknown): boolean {
  if (value instanceof ArgumentFailureError) return true;
  const status = (value as { status?: unknown } | null)?.status;
  return typeof status === "string" && ARGUMENT_STATUSES.has(status) && typeof (value as { tool?: unknown }).tool === "string";
}

/**
 * Thrown by `unwrap` for an outcome that is not `ok`, for code that wants exceptions. It carries
 * the outcome, which is still what the model should be shown.
 */
export class ArgumentFailureError extends Error {
  readonly outcome: FailedOutcome;

  constructor(outcome: FailedOutcome) {
    super(`toolguard: ${outcome.tool} was called with arguments that did not pass (${outcome.status})`);
    this.name = "ArgumentFailureError";
    this.outcome = outcome;
  }
}

/**
 * The result of an `ok` outcome; any other outcome is thrown as an `ArgumentFailureError`. A
 * policy that counts every error (cockatiel's `handleAll`, opossum without `errorFilter`) would
 * then count the model's mistakes: give it `isDependencyFailure` as its filter.
 */
export function unwrap<Result>(outcome: Outcome<Result>): Result {
  if (outcome.status === "ok") return outcome.result;
  throw new ArgumentFailureError(outcome);
}
