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
  constructor(binding: HttpBinding, problem: string) {
    super(`toolguard: refused to send ${binding.method.toUpperCase()} ${binding.path}: ${problem}`);
    this.name = "UnsafeRequestError";
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
    if (decoded === "." || decoded === "..")
      throw new UnsafeRequestError(binding, `a path parameter makes the segment ${JSON.stringify(segment)}, which would leave the operation's path`);
    // A parameter's segment left empty (`/items/` from an empty list): another resource. Values
    // cannot add segments (`/` is encoded), so the template's segments line up with these.
    if (segment === "" && template[index]?.includes("{")) {
      throw new UnsafeRequestError(binding, "a path parameter is empty, which would address a different resource");
    }
  });
}
