// What ajv's strict mode demands of a schema that OpenAPI documents often leave loose: a name in
// `required` defined in `properties`, no keyword for another type, no union of types beside
// type-specific keywords. Each rewrite keeps the meaning; where none can, it refuses the schema.
import { pointerToken } from "../../json-pointer.ts";
import { typesOf } from "./declared-types.ts";
import { KEYWORD_TYPE } from "./schema-keywords.ts";
import { Untranslatable } from "./untranslatable.ts";

type Schema = Record<string, unknown>;

// ajv's strict mode refuses a `required` name that the same schema's `properties` does not
// define, even when a parent does (`anyOf: [{required: [a]}, {required: [b]}]`). Defining it
// as `true` changes nothing, unless extra properties are forbidden, when no request can pass.
export function defineRequired(out: Schema, pointer: string): void {
  if (!Array.isArray(out.required)) return;
  const properties = (out.properties as Schema | undefined) ?? {};
  for (const name of out.required as string[]) {
    if (Object.hasOwn(properties, name) && acceptsNothing(properties[name])) {
      throw new Untranslatable(
        `${pointer}/properties/${pointerToken(name)}`,
        `"${name}" is required but its schema accepts no value (an empty \`enum\`, or \`false\`), so no request can satisfy this schema`,
      );
    }
    if (Object.hasOwn(properties, name)) continue;
    if (out.additionalProperties === false) {
      throw new Untranslatable(
        `${pointer}/required`,
        `"${name}" is required but additionalProperties: false forbids it, so no request can satisfy this schema`,
      );
    }
    properties[name] = true;
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
}

// `enum: []` is legal in JSON Schema 2020-12 (OpenAPI 3.1) and allows no value at all; ajv
// refuses to compile it ("enum must have non-empty array"), which cost a whole operation
// (Discord's join-request status filter). `not: {}` says the same and compiles; the schema's
// other keywords stay (they change nothing, since no value passes).
export function emptyEnum(out: Schema): void {
  if (!Array.isArray(out.enum) || out.enum.length > 0) return;
  delete out.enum;
  if (out.not === undefined) out.not = {};
  else out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), { not: {} }];
}

/** A schema no value satisfies: `false`, or `not: {}` (what an empty enum becomes). */
function acceptsNothing(schema: unknown): boolean {
  if (schema === false) return true;
  if (schema === null || typeof schema !== "object") return false;
  const not = (schema as Schema).not;
  return not === true || (not !== null && typeof not === "object" && Object.keys(not).length === 0);
}

// No `type` is inferred from type-specific keywords (`properties` without `type: object`): each
// keyword asserts only on values of its own type, so a schema with `items` beside `oneOf:
// [array, string]` accepts a string, as ajv does on the schema as written (issue 32). The
// generator's ajv does not ask for the `type` (strictTypes is off, generator/ajv/instances.ts).

function applies(keywordType: string, types: readonly string[]): boolean {
  return types.includes(keywordType) || (keywordType === "number" && types.includes("integer"));
}

// A keyword for another type (`minLength` on an integer) never applies, so it asserts nothing;
// ajv's strict mode refuses it, so it goes, and a `$comment` says so for the reviewer.
export function dropInapplicable(out: Schema): void {
  const types = typesOf(out.type);
  if (types.length === 0) return;
  const dropped = Object.keys(out).filter((key) => KEYWORD_TYPE[key] !== undefined && !applies(KEYWORD_TYPE[key] as string, types));
  if (dropped.length === 0) return;
  for (const key of dropped) delete out[key];
  const note = `${dropped.join(", ")} never apply to type ${types.join("/")} and were left out`;
  out.$comment = typeof out.$comment === "string" ? `${out.$comment}; ${note}` : note;
}

// ajv's strict mode refuses a union of types (other than with null) beside type-specific
// keywords; the same meaning as one branch per type, each carrying its own keywords.
export function splitUnionType(out: Schema): Schema {
  const types = typesOf(out.type);
  if (types.filter((type) => type !== "null").length < 2) return out;
  const outer: Schema = {};
  const branches: Schema[] = types.map((type) => ({ type }));
  for (const [key, value] of Object.entries(out)) {
    if (key === "type") continue;
    const keywordType = key === "format" ? "string" : KEYWORD_TYPE[key];
    if (keywordType === undefined) {
      outer[key] = value;
      continue;
    }
    for (const branch of branches) if (applies(keywordType, [branch.type as string])) branch[key] = value;
  }
  if (outer.anyOf === undefined) outer.anyOf = branches;
  else outer.allOf = [...((outer.allOf as unknown[] | undefined) ?? []), { anyOf: branches }];
  return outer;
}
