// What a JavaScript caller can get wrong that TypeScript would have refused: an implementation
// that is not a function, a limit that is not a positive number, a call without its context.
// Each is a TypeError naming the tool and what to pass, thrown when the tool is bound (or, for
// the context, when it is called), never a crash deeper in the guard.

/** The numeric options of `implement`, and what each must be. */
const LIMITS: readonly (readonly [option: string, integer: boolean])[] = [
  ["maxBytes", true],
  ["maxDepth", true],
  ["maxErrors", true],
  ["maxLedgerTextChars", true],
  ["resolverTimeoutMs", false],
  ["serializeTimeoutMs", false],
];

/** Throws unless `implementation` is a function and every numeric option present is a positive number. */
export function checkBinding(tool: string, implementation: unknown, options: object | undefined): void {
  if (typeof implementation !== "function") {
    throw new TypeError(`toolguard: ${tool}.implement(implementation, options) needs a function as the implementation, got ${describe(implementation)}`);
  }
  if (options === undefined) return;
  if (options === null || typeof options !== "object")
    throw new TypeError(`toolguard: ${tool}.implement's options must be an object, got ${describe(options)}`);
  for (const [option, integer] of LIMITS) {
    const value = (options as Record<string, unknown>)[option];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value > 0) || (integer ? !Number.isSafeInteger(value) : !Number.isFinite(value))) {
      throw new TypeError(`toolguard: ${tool}.implement's option ${option} must be a positive ${integer ? "integer" : "number"}, got ${describe(value)}`);
    }
  }
}

/** The TypeError for a call whose context has no string `turn`, or undefined when it has one. */
export function contextProblem(tool: string, method: "call" | "check", context: unknown): TypeError | undefined {
  if (context !== null && typeof context === "object" && typeof (context as { turn?: unknown }).turn === "string") return undefined;
  const turn = context !== null && typeof context === "object" ? (context as { turn?: unknown }).turn : undefined;
  return new TypeError(
    `toolguard: ${tool}.${method}(raw, context) needs a context with a string turn (the model turn this call belongs to: the repair budget is per turn, e.g. \`\${conversationId}:\${turnIndex}\`), got ${context !== null && typeof context === "object" ? `turn ${describe(turn)}` : describe(context)}`,
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return typeof value === "function" ? "a function" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
