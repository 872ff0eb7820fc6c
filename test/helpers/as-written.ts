// ajv on an OpenAPI document's schemas as written, the judge for tests on real descriptions: a
// translation must never reject what this accepts. JSON Schema has no `nullable` and no boolean
// exclusive bounds, so those two OpenAPI 3.0 forms are spelt out first, in the plainest form
// (not the translator's): `nullable: true` is `anyOf: [schema, {type: null}]`.
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";

type Schema = Record<string, unknown>;

/** A validator for the schema at a JSON Pointer of the document, as written (discriminators ignored). */
export function asWrittenValidators(document: Schema): (pointer: string) => (data: unknown) => boolean {
  const oas30 = String(document.openapi).startsWith("3.0");
  const spelt = oas30 ? spell30(structuredClone(document)) : document;
  const options = { strict: false, validateSchema: false, validateFormats: false, allErrors: false } as const;
  const ajv = oas30 ? new Ajv(options) : new Ajv2020(options);
  ajv.addSchema(spelt as object, "doc");
  const compiled = new Map<string, (data: unknown) => boolean>();
  return (pointer) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `doc#${encodeURI(pointer)}` })));
    return validate;
  };
}

/**
 * 3.0's `nullable` and boolean exclusive bounds in JSON Schema's spelling. A nullable schema
 * becomes `anyOf: [schema, {type: null}]`, one level down from where it was: `wrapped`, when
 * given, receives each such schema's JSON Pointer in the document as written, so that pointers
 * through it can be followed into the spelt tree (test/corpus/spelt-pointers.ts).
 */
export function spell30(node: unknown, wrapped?: Set<string>): unknown {
  return spellAt(node, "", wrapped);
}

function spellAt(node: unknown, pointer: string, wrapped: Set<string> | undefined): unknown {
  if (Array.isArray(node)) return node.map((item, index) => spellAt(item, `${pointer}/${index}`, wrapped));
  if (node === null || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === "example" || key === "examples" ? value : spellAt(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, wrapped);
  spellBooleanBounds(out);
  if (out.nullable === true) {
    delete out.nullable;
    wrapped?.add(pointer);
    if (typeof out.$ref === "string") return { anyOf: [{ $ref: out.$ref }, { type: "null" }] };
    return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

/** 3.0's `exclusiveMinimum: true` beside `minimum` as 2020-12's `exclusiveMinimum: <bound>`, in place. */
export function spellBooleanBounds(out: Schema): void {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true) out[exclusive] = out[bound];
    else delete out[exclusive];
    if (out[exclusive] !== undefined) delete out[bound];
  }
}
