// Whether two union branches can accept one value. `oneOf` fails a value that matches two
// branches, so a new `oneOf` branch was "possibly breaking" for models: a value valid before
// might now match it too. That is so only when the branch can overlap another; where their
// discriminating constraints (`type`, `const`/`enum`, or those of a property both require)
// exclude each other, no value matches both and the new branch breaks no call (issue 30). Any
// other keyword only narrows a branch further, so a pair found disjoint here is disjoint; a pair
// not found disjoint may still be, and stays "possibly".
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { canonical, deref } from "./schema-view.ts";

/** Why no value can match both `a` and `b` (read in `root`), or undefined when that is not shown. */
export function cannotOverlap(root: Schema, a: unknown, b: unknown, depth = 0): string | undefined {
  const x = deref(root, a, "").node;
  const y = deref(root, b, "").node;
  if (!isSchemaObject(x) || !isSchemaObject(y) || depth > 8) return undefined;
  const typesX = typesOf(x);
  const typesY = typesOf(y);
  if (typesX && typesY && ![...typesX].some((type) => [...typesY].some((other) => typesMeet(type, other)))) {
    return `type ${[...typesX].join("|")} vs ${[...typesY].join("|")}`;
  }
  const valuesX = valuesOf(x);
  const valuesY = valuesOf(y);
  if (valuesX && valuesY && !valuesX.some((value) => valuesY.includes(value))) return `value ${valuesX.join("|")} vs ${valuesY.join("|")}`;
  if (!isSchemaObject(x.properties) || !isSchemaObject(y.properties)) return undefined;
  const requiredY = new Set(Array.isArray(y.required) ? y.required : []);
  for (const key of Array.isArray(x.required) ? x.required : []) {
    if (typeof key !== "string" || !requiredY.has(key) || !(key in x.properties) || !(key in y.properties)) continue;
    const reason = cannotOverlap(root, (x.properties as Schema)[key], (y.properties as Schema)[key], depth + 1);
    if (reason) return `${key}: ${reason}`;
  }
  return undefined;
}

const JSON_TYPES = ["null", "boolean", "object", "array", "number", "string"];

function typesOf(node: Schema): Set<string> | undefined {
  if (typeof node.type === "string") return new Set([node.type]);
  if (Array.isArray(node.type) && node.type.every((type) => typeof type === "string")) return new Set(node.type as string[]);
  const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  return values ? new Set(values.map(typeOfValue)) : undefined;
}

function typeOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return JSON_TYPES.includes(typeof value) ? typeof value : "object";
}

function typesMeet(a: string, b: string): boolean {
  if (a === b) return true;
  const numeric = new Set(["integer", "number"]);
  return numeric.has(a) && numeric.has(b);
}

/** The values a schema allows by `const`/`enum`, each canonical, or undefined when not limited. */
function valuesOf(node: Schema): string[] | undefined {
  if ("const" in node) return [canonical(node.const)];
  return Array.isArray(node.enum) ? node.enum.map((value) => canonical(value)) : undefined;
}
