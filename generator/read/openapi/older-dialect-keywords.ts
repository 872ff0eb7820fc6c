// Keywords of 3.0 and draft-07 that 2020-12 spells differently: the translation writes the
// 2020-12 spelling, with the same meaning, so one validator dialect serves every document.
import { pointerToken } from "../../json-pointer.ts";
import { Untranslatable } from "./untranslatable.ts";

type Schema = Record<string, unknown>;

// 3.0 (like draft-04) writes `exclusiveMinimum: true` beside `minimum`; 2020-12 writes the bound
// itself, and the inclusive bound goes (the exclusive one is the stronger of the two).
export function translateBooleanExclusives(source: Schema, out: Schema): void {
  for (const [key, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (source[key] !== true || typeof source[bound] !== "number") continue;
    out[key] = source[bound];
    delete out[bound];
  }
}

// draft-07's `dependencies` holds both kinds: a list of names (2020-12 `dependentRequired`) or a
// schema (`dependentSchemas`); `nested` translates the schemas as any other subschema.
export function translateDependencies(value: unknown, pointer: string, out: Schema, nested: (value: unknown, pointer: string) => unknown): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Untranslatable(pointer, "`dependencies` must be an object");
  for (const [name, dependency] of Object.entries(value)) {
    const keyword = Array.isArray(dependency) ? "dependentRequired" : "dependentSchemas";
    const target = ((out[keyword] as Schema | undefined) ??= {});
    target[name] = Array.isArray(dependency) ? dependency : nested(dependency, `${pointer}/${pointerToken(name)}`);
  }
}
