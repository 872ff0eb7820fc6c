// The judge of "valid": ajv on a document's schemas as the vendor wrote them, never on
// toolguard's translation. OpenAPI's own semantics are applied first, in the plainest spelling
// (test/helpers/as-written.ts's spell30: `nullable`, boolean exclusive bounds), plus OpenAPI's
// rule that a `readOnly` property is not required in a request, and its rule that a
// discriminator's value selects the branch (discriminator-judge.ts). The formats toolguard asserts are asserted with ajv-formats' definitions (an
// implementation that is not toolguard's); every other format is an annotation.
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { RE2JS } from "re2js";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { spell30, spellBooleanBounds } from "../helpers/as-written.ts";
import { addDiscriminatorKeyword, markDiscriminators } from "./discriminator-judge.ts";
import { withSchemaIdentifiers } from "./schema-identifiers.ts";
import { followRefs, spelt as speltPointers } from "./spelt-pointers.ts";

type Node = Record<string, unknown>;

/** Formats toolguard asserts (generator/read/openapi/formats.ts: kept ones, and byte/int32/int64). */
const ASSERTED = new Set([...KEPT_FORMATS, "byte", "int32", "int64"]);

/** ajv-formats' names; the asserted ones it lacks (idn-*, iri*) are taken as annotations. */
const AJV_FORMATS = [
  "date",
  "time",
  "date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
] as const;

/** RFC 3339's time-offset: `Z`, or a sign, hours, a colon and minutes. */
const RFC3339_OFFSET = /(?:z|[+-]\d\d:\d\d)$/i;

export type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * A quantified group (`(...)*`, `(...)+`, `(...){n,}`) in a pattern that has another quantifier
 * may nest one quantifier in another (`([\/\w .-]*)*`, beezup's URL pattern): a backtracking
 * engine takes exponential time on a string that fails it, and one vendor example hung the judge
 * for good. The guard matches patterns in linear time; the judge does too for these (below), and
 * reads every other pattern with JavaScript's own engine. The test is broad on purpose (a
 * quantified group anywhere, a quantifier anywhere else): a miss hangs the run.
 */
function mayNestQuantifiers(pattern: string): boolean {
  const quantifiedGroup = /\)(?:[*+]|\{\d+,)/;
  const quantifiers = pattern.match(/(?<!\\)(?:[*+]|\{\d+,?\d*\})/g) ?? [];
  return quantifiedGroup.test(pattern) && quantifiers.length >= 2;
}

/** Patterns as JavaScript reads them (OpenAPI's ECMA-262 regex), with `u` when they need it; nested quantifiers in linear time. */
function regExp(pattern: string, flags: string): { test(text: string): boolean; toString(): string } {
  if (mayNestQuantifiers(pattern)) {
    try {
      const linear = RE2JS.compile(pattern);
      // ajv keys the patterns of one instance by `toString()`: without one of its own, every
      // pattern read this way would share the first one's matcher (webflow's `email` was judged
      // by another property's pattern, and "a" counted as valid).
      const key = `re2:/${pattern}/${flags}`;
      return { test: (text) => linear.matcher(text).find(), toString: () => key };
    } catch {
      // Not RE2 syntax: JavaScript's engine, as for every other pattern.
    }
  }
  try {
    return new RegExp(pattern, flags);
  } catch {
    return new RegExp(pattern, flags.replace("u", ""));
  }
}

/** Every other format the document uses, so ajv takes it as an annotation. */
function otherFormats(node: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > 400 || node === null || typeof node !== "object") return into;
  if (Array.isArray(node)) {
    for (const item of node) otherFormats(item, into, depth + 1);
    return into;
  }
  const format = (node as Node).format;
  if (typeof format === "string" && !ASSERTED.has(format)) into.add(format);
  for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") otherFormats(value, into, depth + 1);
  return into;
}

/** OpenAPI: "if the property is readOnly and in the required list, the required takes effect on the response only". */
function requestRequired(node: unknown, depth = 0): unknown {
  if (depth > 400 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((item) => requestRequired(item, depth + 1));
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === "example" || key === "examples" ? value : requestRequired(value, depth + 1);
  const properties = out.properties as Node | undefined;
  if (Array.isArray(out.required) && properties && typeof properties === "object") {
    out.required = (out.required as unknown[]).filter((name) => (properties[String(name)] as Node | undefined)?.readOnly !== true);
  }
  return out;
}

/**
 * `enum: []` is legal JSON Schema (2020-12 says an enum SHOULD have an element, not MUST) and
 * admits no value; ajv refuses to compile it ("enum must have non-empty array"), which left two
 * of Discord's tools unjudged. Spelt in place as `not: {}`, the same meaning, beside the
 * schema's other keywords (`allOf` when a `not` is already there). Data (examples, enums,
 * defaults, consts) is left alone.
 */
export function emptyEnums(node: unknown, depth = 0): unknown {
  if (depth > 400 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    for (const item of node) emptyEnums(item, depth + 1);
    return node;
  }
  const schema = node as Node;
  if (Array.isArray(schema.enum) && schema.enum.length === 0) {
    delete schema.enum;
    if (schema.not === undefined) schema.not = {};
    else schema.allOf = [...((schema.allOf as unknown[] | undefined) ?? []), { not: {} }];
  }
  for (const [key, value] of Object.entries(schema))
    if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const" && key !== "default") emptyEnums(value, depth + 1);
  return node;
}

/** `nullable` renamed `x-nullable` in place, data (examples, enums, defaults) left alone. */
function withoutNullable(node: unknown, depth = 0): unknown {
  if (depth > 400 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    for (const item of node) withoutNullable(item, depth + 1);
    return node;
  }
  const schema = node as Node;
  if (Object.hasOwn(schema, "nullable")) {
    schema["x-nullable"] = schema.nullable;
    delete schema.nullable;
  }
  for (const [key, value] of Object.entries(schema))
    if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const" && key !== "default") withoutNullable(value, depth + 1);
  return node;
}

/** Which JSON Schema reading the document's schemas get. */
export function schemaDialect(document: Node): "oas30" | "2020-12" {
  return typeof document.swagger === "string" || !String(document.openapi).startsWith("3.1") ? "oas30" : "2020-12";
}

/**
 * A validator factory over the document as written: `compile(schema)` takes a schema whose
 * `$ref`s point into the document as `doc#/...`.
 */
export function asWrittenJudge(document: Node, plain?: "draft-07" | "2020-12"): (schema: object) => Validate {
  // `plain`: a JSON Schema (an MCP tool's inputSchema) in that dialect, without OpenAPI's rules.
  const dialect = plain === "draft-07" ? "oas30" : (plain ?? schemaDialect(document));
  // The nullable schemas spell30 moves one level down: pointers through them are followed (spelt-pointers.ts).
  const wrapped = new Set<string>();
  const spelt = plain
    ? document
    : dialect === "oas30"
      ? (requestRequired(spell30(structuredClone(document), wrapped)) as Node)
      : booleanBounds(requestRequired(document) as Node);
  const follow = speltPointers(wrapped);
  // ajv reads OpenAPI 3.0's `nullable` in every dialect. In 3.0 spell30 has spelt out every
  // `nullable: true`, so what is left (`nullable: false`) says nothing; JSON Schema 2020-12
  // (OpenAPI 3.1, MCP) does not know the keyword. So it is an annotation everywhere here (ajv
  // refuses to compile it without `type`: OpenAI's 3.1 description, visma.com's `nullable:
  // false`). Renamed on a copy.
  // The `$id`s ajv reads are the identifiers the dialect gives the document (schema-identifiers.ts):
  // none in data, none in an OpenAPI 3.0 schema. A fresh tree, so the marks below stay on it.
  const read = emptyEnums(withSchemaIdentifiers(withoutNullable(plain ? structuredClone(spelt) : spelt), plain ? "2020-12" : dialect)) as Node;
  const options = {
    strict: false,
    validateSchema: false,
    allErrors: false,
    code: { regExp: regExp as never },
    formats: Object.fromEntries([...otherFormats(document, new Set())].map((name) => [name, true as const])),
  } as const;
  const ajv = dialect === "oas30" ? new Ajv(options) : new Ajv2020(options);
  addFormats.default(ajv as never, { mode: "full", formats: [...AJV_FORMATS] });
  // ajv-formats takes an offset without its colon (`+0000`); RFC 3339, which JSON Schema's
  // `date-time` and `time` name, does not (time-numoffset = ("+" / "-") time-hour ":"
  // time-minute), nor does the guard. Jira's examples write `+0000`: the vendor's defect.
  for (const name of ["date-time", "time"] as const) {
    const base = fullFormats[name] as { validate: (text: string) => boolean };
    ajv.addFormat(name, { type: "string", validate: (text: string) => RFC3339_OFFSET.test(text) && base.validate(text) });
  }
  if (!plain) {
    // `read` is a fresh tree here (withSchemaIdentifiers builds one): marking it leaves the document alone.
    followRefs(read, follow);
    markDiscriminators(document, read, follow);
    addDiscriminatorKeyword(ajv as never);
  }
  for (const name of ASSERTED) if (!AJV_FORMATS.includes(name as never)) ajv.addFormat(name, true);
  const { $id: _id, $schema: _schema, ...body } = read;
  ajv.addSchema(body as object, "doc");
  return (schema) => ajv.compile(wrapped.size === 0 ? schema : followRefs(structuredClone(schema), follow)) as Validate;
}

/**
 * A boolean `exclusiveMinimum`/`exclusiveMaximum` in an OpenAPI 3.1 document (OpenAI's
 * `{minimum: 0, exclusiveMinimum: true}`) is 3.0's spelling, which 2020-12 does not have (ajv
 * refuses to compile it). The guard reads it as 3.0 does in every version (generator/read/openapi/
 * older-dialect-keywords.ts), and so does the judge: spelt as 2020-12's bound, in place.
 */
function booleanBounds(node: Node): Node {
  const visit = (value: unknown, depth: number): void => {
    if (depth > 400 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const schema = value as Node;
    if (typeof schema.exclusiveMinimum === "boolean" || typeof schema.exclusiveMaximum === "boolean") spellBooleanBounds(schema);
    for (const [key, child] of Object.entries(schema))
      if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const" && key !== "default") visit(child, depth + 1);
  };
  visit(node, 0);
  return node;
}

/** A `$ref` to a pointer of the document, for schemas handed to the judge. */
export function docRef(pointer: string): { $ref: string } {
  return { $ref: `doc#${encodeURI(pointer)}` };
}
