// A tool read from OpenAPI puts some arguments into its URL path. A value that would take the
// request outside the operation's path (`..`, `%2e.`, an empty segment) passes any schema that
// allows the string, and the dispatcher would refuse it by throwing: the implementation's error,
// which the model never sees. Checked here instead, after validation, as a validation problem at
// that argument, so the model can send a real value within its repair budget.
import type { ArgumentError } from "../contract/outcome.ts";
import type { HttpBinding } from "../contract/tool-spec.ts";
import { requestPath } from "../dispatch/request-path.ts";
import { UnsafeRequestError } from "../dispatch/unsafe-request.ts";
import { escapeToken } from "../json/json-pointer.ts";

/** The arguments that go into the URL path of `binding`: what `pathArgumentErrors` reads, found once per bound tool. */
export function pathArgumentNames(binding: HttpBinding | undefined): readonly string[] {
  return binding === undefined ? [] : binding.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.arg);
}

/**
 * Problems with the path arguments of `args` (validated), or undefined when the path is safe.
 * `names`: `pathArgumentNames(binding)`.
 */
export function pathArgumentErrors(binding: HttpBinding | undefined, args: unknown, names: readonly string[]): readonly ArgumentError[] | undefined {
  if (binding === undefined || typeof args !== "object" || args === null || plainPathArguments(names, args as Record<string, unknown>)) return undefined;
  try {
    requestPath(binding, args as Record<string, unknown>);
    return undefined;
  } catch (error) {
    if (!(error instanceof UnsafeRequestError)) throw error;
    const value = error.argument === undefined ? undefined : (args as Record<string, unknown>)[error.argument];
    return [
      {
        path: error.argument === undefined ? "" : `/${escapeToken(error.argument)}`,
        rule: "path_segment",
        message: `this value goes into the request's URL path, and ${error.problem}${value === undefined ? "" : ` (received ${JSON.stringify(value)})`}; send the real, non-empty value (not "." or "..")`,
      },
    ];
  }
}

/**
 * The common case, decided without building the path: every path argument is a number or a
 * non-empty string without `.` or `%` (the only characters that can spell `.` or `..` once
 * encoded and decoded), so no segment can be empty or resolve away. A generated tool prints the
 * same look with each argument read by name (`HazardWalk.plainPath`, generator/emit/path-probe.ts).
 */
export function plainPathArguments(names: readonly string[], args: Readonly<Record<string, unknown>>): boolean {
  for (let index = 0; index < names.length; index++) if (!plainArgument(args[names[index] as string])) return false;
  return true;
}

/** One path argument's value that is safe in any segment as it is: a number, or a plain string (`plainSegment`). */
export function plainArgument(value: unknown): boolean {
  return typeof value === "number" || plainSegment(value);
}

/** What a `PlainArgument` starts with: equal to no argument value. */
const NOTHING_SEEN: unique symbol = Symbol("nothing seen");

/**
 * `plainArgument` for one path argument of one tool (its printed look holds one per argument),
 * remembering the last string it found plain: calls that repeat a value (an agent at work in one
 * repository sends the same owner and repo every time) compare it once instead of reading its
 * characters again. A value equal to one found plain is plain; anything else is read.
 */
export class PlainArgument {
  #plain: string | typeof NOTHING_SEEN = NOTHING_SEEN;

  holds(value: unknown): boolean {
    if (value === this.#plain) return true;
    if (typeof value === "number") return true;
    if (!plainSegment(value)) return false;
    this.#plain = value as string;
    return true;
  }
}

const DOT = 46;
const PERCENT = 37;

/**
 * A non-empty string without `.` or `%`, read in one pass: a path value is short, and one loop
 * over its characters cost less than two native searches (measured on GitHub's owner and repo).
 */
function plainSegment(value: unknown): boolean {
  if (typeof value !== "string" || value === "") return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code === DOT || code === PERCENT) return false;
  }
  return true;
}
