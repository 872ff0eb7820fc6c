// The request's path from the operation's template and the path arguments, refused when a value
// would take it outside the operation's path. The guard runs the same checks before the
// implementation (call/path-arguments.ts), so the model gets a correction rather than the call an
// exception; the dispatcher keeps them, for resolved identifiers and direct callers.
import type { HttpBinding, HttpParameter } from "../contract/tool-spec.ts";
import { type Encode, isRecord, scalar, simple } from "./styles.ts";

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

/** A path segment the URL parser would resolve away (`.`, `..`, `%2e` forms), or an empty one. */
function checkPathSegments(binding: HttpBinding, path: string): void {
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

function pathValue(binding: HttpBinding, parameter: HttpParameter, value: unknown): string {
  const explode = parameter.explode ?? false;
  const encode: Encode = encodeURIComponent;
  const text = scalar(value);
  if (!Array.isArray(value) && !isRecord(value) && text === "")
    throw new UnsafeRequestError(binding, `path parameter ${parameter.name} is empty, which addresses a different resource`, parameter.arg);
  switch (parameter.style ?? "simple") {
    case "label": {
      // `.` separates a label's items: one inside an item is encoded, so `.` never becomes `..`.
      const labelEncode: Encode = (item) => encodeURIComponent(item).replaceAll(".", "%2E");
      if (!explode || (!Array.isArray(value) && !isRecord(value))) return `.${simple(value, explode, labelEncode)}`;
      return `.${simple(value, true, labelEncode).replaceAll(",", ".")}`;
    }
    case "matrix": {
      const name = encode(parameter.name);
      if (Array.isArray(value)) {
        return explode ? value.map((item) => `;${name}=${encode(scalar(item))}`).join("") : `;${name}=${simple(value, false, encode)}`;
      }
      if (isRecord(value)) {
        return explode
          ? Object.entries(value)
              .map(([key, item]) => `;${encode(key)}=${encode(scalar(item))}`)
              .join("")
          : `;${name}=${simple(value, false, encode)}`;
      }
      return value === null || value === "" ? `;${name}` : `;${name}=${encode(scalar(value))}`;
    }
    default:
      return simple(value, explode, encode);
  }
}

/** The argument of the first path parameter in a template segment (`{owner}`), if any. */
function argumentIn(binding: HttpBinding, segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  return binding.parameters.find((parameter) => parameter.in === "path" && segment.includes(`{${parameter.name}}`))?.arg;
}
