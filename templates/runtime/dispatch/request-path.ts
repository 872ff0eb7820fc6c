// The request's path from the operation's template and the path arguments, refused when a value
// would take it outside the operation's path. The guard runs it before the implementation
// (call/path-arguments.ts), so the model gets a correction rather than the call an exception; the
// dispatcher runs it again, for resolved identifiers and direct callers.
import type { HttpBinding } from "../contract/tool-spec.ts";
import { pathValue } from "./parameter-values.ts";
import { checkPathSegments, UnsafeRequestError } from "./unsafe-request.ts";

/** The operation's path with the path arguments in place; throws `UnsafeRequestError` when one would leave it. */
export function requestPath(binding: HttpBinding, args: Readonly<Record<string, unknown>>): string {
  let path = binding.path;
  for (const parameter of binding.parameters) {
    if (parameter.in !== "path") continue;
    const value = args[parameter.arg];
    if (value === undefined) throw new UnsafeRequestError(binding, `path parameter ${parameter.name} has no value`, parameter.arg);
    path = path.replaceAll(`{${parameter.name}}`, pathValue(binding, parameter, value));
  }
  checkPathSegments(binding, path);
  return path;
}
