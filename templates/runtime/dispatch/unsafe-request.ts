// A request the arguments would make other than the operation's is refused, before the `auth`
// hook sees it: the arguments passed the schema, but a value can still leave the path (`..`, an
// empty segment, checked here) or pose as another query parameter or as structure a server
// parses (checked as the query string is built, query-string.ts).
import type { HttpBinding } from "../contract/tool-spec.ts";

/**
 * The arguments would make a request other than the operation's: leave its path (`..`, an
 * empty segment), override another parameter, or smuggle structure into a query key. Thrown
 * before the `auth` hook sees the request, so nothing is signed or sent.
 */
export class UnsafeRequestError extends Error {
  /** What is wrong, in words for the model. */
  readonly problem: string;
  /** The argument whose value made the request unsafe, when one did. */
  readonly argument: string | undefined;

  constructor(binding: HttpBinding, problem: string, argument?: string) {
    super(`toolguard: refused to send ${binding.method.toUpperCase()} ${binding.path}: ${problem}`);
    this.name = "UnsafeRequestError";
    this.problem = problem;
    this.argument = argument;
  }
}

/** A path segment the URL parser would resolve away (`.`, `..`, `%2e` forms), or an empty one. */
export function checkPathSegments(binding: HttpBinding, path: string): void {
  const template = binding.path.split("/");
  path.split("/").forEach((segment, index) => {
    let decoded = segment;
    for (let round = 0; round < 3 && decoded.includes("%"); round++) {
      try {
        decoded = decodeURIComponent(decoded);
      } catch {
        break;
      }
    }
    if (decoded === "." || decoded === "..") {
      throw new UnsafeRequestError(
        binding,
        `the path segment would be ${JSON.stringify(segment)}, which leaves the operation's path`,
        argumentIn(binding, template[index]),
      );
    }
    // A parameter's segment left empty (`/items/` from an empty list): another resource. Values
    // cannot add segments (`/` is encoded), so the template's segments line up with these.
    if (segment === "" && template[index]?.includes("{")) {
      throw new UnsafeRequestError(binding, "the path segment would be empty, which addresses a different resource", argumentIn(binding, template[index]));
    }
  });
}

/** The argument of the path parameter in a template segment. */
function argumentIn(binding: HttpBinding, segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  return binding.parameters.find((parameter) => parameter.in === "path" && segment.includes(`{${parameter.name}}`))?.arg;
}
