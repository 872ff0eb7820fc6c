// Arguments some SDKs hand over already parsed. Anything `JSON.parse` could not have produced
// (functions, undefined, cycles, class instances, NaN, sparse arrays) is refused here, before it
// is turned into text; the guard then treats that text exactly like a model's string.
import type { ArgumentError } from "./outcome.ts";
import { escapeToken } from "./json-pointer.ts";

/** Why `value` is not plain JSON data, or `undefined` when it is. */
export function nonJsonReason(value: unknown, maxDepth: number): ArgumentError | undefined {
  try {
    return check(value, "", 0, maxDepth, new Set());
  } catch {
    return { path: "", rule: "not_json", message: "the arguments could not be read as JSON data; send a JSON object" };
  }
}

function refuse(path: string, what: string): ArgumentError {
  return { path, rule: "not_json", message: `${what} is not JSON data; send a JSON object built from strings, numbers, booleans, null, arrays and objects` };
}

function check(value: unknown, path: string, depth: number, maxDepth: number, ancestors: Set<object>): ArgumentError | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : refuse(path, `the number ${String(value)}`);
    case "object":
      break;
    default:
      return refuse(path, `a value of type ${typeof value}`);
  }
  if (value === null) return undefined;
  if (depth >= maxDepth) {
    return { path, rule: "too_deep", message: `the arguments nest deeper than ${maxDepth} levels of objects and arrays; send a flatter object` };
  }
  if (ancestors.has(value)) return refuse(path, "a circular reference");
  const isArray = Array.isArray(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    return refuse(path, "an object that is not a plain object or array");
  }
  if (!isArray && typeof (value as { toJSON?: unknown }).toJSON === "function") return refuse(path, "an object with toJSON");
  ancestors.add(value);
  if (isArray) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return refuse(`${path}/${i}`, "an empty slot in an array");
      const problem = check(value[i], `${path}/${i}`, depth + 1, maxDepth, ancestors);
      if (problem) return problem;
    }
  } else {
    for (const key of Object.keys(value)) {
      const problem = check((value as Record<string, unknown>)[key], `${path}/${escapeToken(key)}`, depth + 1, maxDepth, ancestors);
      if (problem) return problem;
    }
  }
  ancestors.delete(value);
  return undefined;
}
