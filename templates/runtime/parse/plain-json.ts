// Arguments some SDKs hand over already parsed. Anything `JSON.parse` could not have produced
// (functions, undefined, cycles, class instances, NaN, sparse arrays) is refused here, before it
// is turned into text; the guard then treats that text exactly like a model's string.
import type { ArgumentError } from "../contract/outcome.ts";
import { escapeToken } from "../json/json-pointer.ts";

/** Why `value` is not plain JSON data, or `undefined` when it is. */
export function nonJsonReason(value: unknown, maxDepth: number): ArgumentError | undefined {
  try {
    return check(value, [], maxDepth, new Set());
  } catch {
    return { path: "", rule: "not_json", message: "the arguments could not be read as JSON data; send a JSON object" };
  }
}

// The walk keeps the tokens of where it is and builds a pointer only for the value it refuses:
// valid arguments (nearly all) cost no string per node.
function pathOf(tokens: readonly (string | number)[]): string {
  let path = "";
  for (const token of tokens) path += `/${escapeToken(token)}`;
  return path;
}

function refuse(tokens: readonly (string | number)[], what: string): ArgumentError {
  return {
    path: pathOf(tokens),
    rule: "not_json",
    message: `${what} is not JSON data; send a JSON object built from strings, numbers, booleans, null, arrays and objects`,
  };
}

function check(value: unknown, tokens: (string | number)[], maxDepth: number, ancestors: Set<object>): ArgumentError | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : refuse(tokens, `the number ${String(value)}`);
    case "object":
      break;
    default:
      return refuse(tokens, `a value of type ${typeof value}`);
  }
  if (value === null) return undefined;
  if (tokens.length >= maxDepth) {
    return {
      path: pathOf(tokens),
      rule: "too_deep",
      message: `the arguments nest deeper than ${maxDepth} levels of objects and arrays; send a flatter object`,
    };
  }
  if (ancestors.has(value)) return refuse(tokens, "a circular reference");
  const isArray = Array.isArray(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    return refuse(tokens, "an object that is not a plain object or array");
  }
  if (!isArray && typeof (value as { toJSON?: unknown }).toJSON === "function") return refuse(tokens, "an object with toJSON");
  ancestors.add(value);
  if (isArray) {
    for (let i = 0; i < value.length; i++) {
      tokens.push(i);
      const problem = i in value ? check(value[i], tokens, maxDepth, ancestors) : refuse(tokens, "an empty slot in an array");
      tokens.pop();
      if (problem) return problem;
    }
  } else {
    for (const key of Object.keys(value)) {
      tokens.push(key);
      const problem = check((value as Record<string, unknown>)[key], tokens, maxDepth, ancestors);
      tokens.pop();
      if (problem) return problem;
    }
  }
  ancestors.delete(value);
  return undefined;
}
