// Translates OpenAPI schemas (3.0's dialect, 3.1's 2020-12 with OpenAPI's vocabulary, or a
// declared draft-07) into self-contained 2020-12 schemas for request arguments. `$ref`s stay
// references: each target is translated once per tool into its `$defs`, so recursion stays
// finite. Anything that cannot be translated faithfully throws `Untranslatable` naming the node.

import { uniqueName } from "../../load/localize-schema.ts";
import { translateFormat } from "./formats.ts";
import {
  APPLICATORS,
  DROPPED_KEYWORDS,
  DYNAMIC_ANCHORS,
  KEPT_ANNOTATIONS,
  KEYWORD_TYPE,
  REF_SIBLINGS_3_0,
  SINGLE_SUBSCHEMA,
  SUBSCHEMA_ARRAY,
  SUBSCHEMA_MAP,
  UNSUPPORTED_KEYWORDS,
  VALUE_ASSERTIONS,
} from "./schema-keywords.ts";
import { applyDiscriminator } from "./discriminator.ts";
import { dynamicTarget, isAnchored, reachesRecursiveRef, recursiveTarget } from "./recursive-refs.ts";
import { dialectOf, type SchemaDialect } from "./schema-dialect.ts";
import { Untranslatable } from "./untranslatable.ts";
import { decodeToken, pointerToken, resolvePointer } from "../../json-pointer.ts";

type Schema = Record<string, unknown>;

/** Translates the schemas of one tool, collecting the definitions they reference. */
export interface SchemaTranslator {
  /** The translated schema at `pointer` in the document. */
  translate(pointer: string): unknown;
  /** Every definition imported so far, keyed by its name in `$defs`. */
  readonly defs: Readonly<Record<string, unknown>>;
  /** Keywords left out (with `unknownKeywords: "drop"`), for warnings. */
  readonly dropped: readonly DroppedKeyword[];
}

/** A keyword the translation left out instead of refusing the schema. */
export interface DroppedKeyword {
  readonly pointer: string;
  /** `unknown`: not a JSON Schema or OpenAPI keyword; `beside-ref`: OpenAPI 3.0 ignores it beside `$ref`. */
  readonly why: "unknown" | "beside-ref";
}

export interface TranslateOptions {
  /**
   * An unknown keyword (`min_items`): `"refuse"` (default) throws Untranslatable, since it may be
   * a misspelt assertion; `"drop"` leaves it out, as JSON Schema treats it (an annotation), and
   * lists it in `dropped` for a warning; likewise an assertion beside a 3.0 `$ref`, which 3.0
   * ignores. Third-party documents are read with `"drop"` unless `--strict`.
   */
  readonly unknownKeywords?: "refuse" | "drop";
}

/** Where a schema sits, and what it inherits from the schema around it. */
interface Place {
  readonly pointer: string;
  readonly dialect: SchemaDialect;
  /** The `type` a parent declares for the same instance (allOf/anyOf/oneOf branches). */
  readonly parentTypes: readonly string[];
  /** Property names a parent or `allOf` sibling declares read-only. */
  readonly readOnlyNames: ReadonlySet<string>;
  /** The nearest enclosing schema with `$recursiveAnchor: true`: a `$recursiveRef`'s initial target. */
  readonly recursiveAnchor?: string;
  /** The outermost schema with `$recursiveAnchor: true` on the `$ref` path here: where `$recursiveRef` goes. */
  readonly outermostAnchor?: string;
}

const NO_NAMES: ReadonlySet<string> = new Set();

export function createSchemaTranslator(document: unknown, dialect: SchemaDialect, options: TranslateOptions = {}): SchemaTranslator {
  const defs: Schema = {};
  const dropped: DroppedKeyword[] = [];
  const drop = (pointer: string, why: DroppedKeyword["why"]): void => {
    if (!dropped.some((known) => known.pointer === pointer)) dropped.push({ pointer, why });
  };
  const imported = new Map<string, string>(); // document pointer -> local $ref (its first import)
  const importedAs = new Map<string, string>(); // the same, keyed by pointer and outermost anchor where that matters
  const names = new Set<string>();

  // A target reached under an outermost `$recursiveAnchor` whose `$recursiveRef`s it can reach
  // resolve there: it is imported once per such anchor (recursive-refs.ts says why).
  const importRef = (ref: string, at: string, current: SchemaDialect, outermost?: string): string => {
    const target = refPointer(ref, at);
    const value = resolvePointer(document, target);
    const inside = outermost ?? (isAnchored(value) ? target : undefined);
    const key = inside !== undefined && reachesRecursiveRef(document, target) ? `${target} under ${inside}` : target;
    const known = importedAs.get(key);
    if (known !== undefined) return known;
    if (value === undefined) throw new Untranslatable(at, `$ref "${ref}" points at nothing`);
    const name = uniqueName(decodeToken(target.split("/").pop() || "root"), names);
    const local = `#/$defs/${pointerToken(name)}`;
    importedAs.set(key, local);
    if (!imported.has(target)) imported.set(target, local);
    defs[name] = schema(value, { pointer: target, dialect: current, parentTypes: [], readOnlyNames: NO_NAMES, outermostAnchor: inside });
    return local;
  };

  const schema = (node: unknown, place: Place): unknown => {
    if (typeof node === "boolean" && place.dialect !== "oas30") return node;
    if (node === null || typeof node !== "object" || Array.isArray(node)) {
      throw new Untranslatable(place.pointer, "expected a schema object");
    }
    const source = node as Schema;
    const declared = withDialect(source, place);
    const here: Place = isAnchored(source)
      ? { ...declared, recursiveAnchor: declared.pointer, outermostAnchor: declared.outermostAnchor ?? declared.pointer }
      : declared;
    const at = (key: string): string => `${here.pointer}/${pointerToken(key)}`;
    const besideRef = here.dialect === "oas30" && typeof source.$ref === "string" ? refSiblings(source) : [];
    if (besideRef.length > 0 && options.unknownKeywords !== "drop") {
      const key = besideRef[0] as string;
      throw new Untranslatable(at(key), `OpenAPI 3.0 ignores \`${key}\` beside $ref, so its meaning is ambiguous; move it into an allOf with the $ref`);
    }
    for (const key of besideRef) drop(at(key), "beside-ref");

    const out: Schema = {};
    const examples: unknown[] = [];
    const ownTypes = typesOf(source.type);
    const childTypes = ownTypes.length > 0 ? ownTypes : here.parentTypes;
    const branch = (key: string, value: unknown, pointer: string, readOnlyNames: ReadonlySet<string> = NO_NAMES): unknown =>
      schema(value, {
        pointer,
        dialect: here.dialect,
        parentTypes: key === "not" ? [] : childTypes,
        readOnlyNames,
        recursiveAnchor: here.recursiveAnchor,
        outermostAnchor: here.outermostAnchor,
      });
    const nested = (value: unknown, pointer: string): unknown =>
      schema(value, {
        pointer,
        dialect: here.dialect,
        parentTypes: [],
        readOnlyNames: NO_NAMES,
        recursiveAnchor: here.recursiveAnchor,
        outermostAnchor: here.outermostAnchor,
      });

    for (const [key, value] of Object.entries(source)) {
      if (
        key.startsWith("x-") ||
        besideRef.includes(key) ||
        DROPPED_KEYWORDS.has(key) ||
        DYNAMIC_ANCHORS.has(key) ||
        key === "discriminator" ||
        key === "nullable" ||
        key === "format" ||
        key === "$schema"
      )
        continue;
      if (UNSUPPORTED_KEYWORDS.has(key)) throw new Untranslatable(at(key), `\`${key}\` changes how references resolve, which toolguard does not follow`);
      if (key === "$ref") {
        if (typeof value !== "string") throw new Untranslatable(at(key), "$ref must be a string");
        out.$ref = importRef(value, at(key), here.dialect, here.outermostAnchor);
      } else if (key === "$recursiveRef") {
        const target = recursiveTarget(value, at(key), here.recursiveAnchor, here.outermostAnchor);
        out.$ref = importRef(`#${target}`, at(key), here.dialect, here.outermostAnchor);
      } else if (key === "$dynamicRef") {
        out.$ref = importRef(`#${dynamicTarget(document, value, at(key))}`, at(key), here.dialect, here.outermostAnchor);
      } else if (key === "example") {
        examples.push(value);
      } else if (key === "examples") {
        if (!Array.isArray(value)) throw new Untranslatable(at(key), "a schema's `examples` must be an array");
        examples.push(...value);
      } else if (KEPT_ANNOTATIONS.has(key)) {
        out[key] = value;
      } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") {
      } else if (key === "dependencies" && here.dialect === "draft-07") {
        translateDependencies(value, at(key), out, nested);
      } else if (key === "items" && Array.isArray(value)) {
        if (here.dialect !== "draft-07") throw new Untranslatable(at(key), "`items` as an array is draft-07 syntax; in 2020-12 write `prefixItems`");
        out.prefixItems = value.map((item, index) => nested(item, `${at(key)}/${index}`));
      } else if (key === "additionalItems") {
        if (here.dialect !== "draft-07")
          throw new Untranslatable(at(key), "`additionalItems` is draft-07 syntax; in 2020-12 write `items` beside `prefixItems`");
        if (Array.isArray(source.items)) out.items = nested(value, at(key));
      } else if (VALUE_ASSERTIONS.has(key)) {
        out[key] = value;
      } else if (key === "additionalProperties" && typeof value === "boolean") {
        out[key] = value; // 3.0 allows a boolean here, though nowhere else
      } else if (SINGLE_SUBSCHEMA.has(key)) {
        const sameInstance = key === "if" || key === "then" || key === "else" || key === "not";
        out[key] = sameInstance ? branch(key, value, at(key)) : nested(value, at(key));
      } else if (SUBSCHEMA_ARRAY.has(key)) {
        if (!Array.isArray(value)) throw new Untranslatable(at(key), `\`${key}\` must be an array of schemas`);
        const inherited = key === "allOf" ? allOfReadOnlyNames(document, source, here.readOnlyNames) : NO_NAMES;
        out[key] = value.map((item, index) =>
          key === "prefixItems" ? nested(item, `${at(key)}/${index}`) : branch(key, item, `${at(key)}/${index}`, inherited),
        );
      } else if (SUBSCHEMA_MAP.has(key)) {
        if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Untranslatable(at(key), `\`${key}\` must map names to schemas`);
        const map: Schema = {};
        for (const [name, child] of Object.entries(value)) map[name] = nested(child, `${at(key)}/${pointerToken(name)}`);
        out[key] = map;
      } else if (options.unknownKeywords === "drop") {
        drop(at(key), "unknown");
      } else {
        throw new Untranslatable(at(key), `unknown keyword \`${key}\`: toolguard will not guess whether it asserts something`);
      }
    }

    translateBooleanExclusives(source, out);
    if (typeof source.format === "string") translateFormat(source.format, out);
    dropReadOnly(document, source, out, here.readOnlyNames);
    if (source.discriminator !== undefined) applyDiscriminator(document, source, out, here.pointer, imported);
    defineRequired(out, here.pointer);
    checkPatterns(out, here.pointer);
    dropInapplicable(out);
    inferType(out, childTypes);
    if (examples.length > 0) out.examples = examples;
    return splitUnionType(source.nullable === true ? allowNull(out) : out);
  };

  return {
    translate: (pointer) => schema(resolvePointer(document, pointer), { pointer, dialect, parentTypes: [], readOnlyNames: NO_NAMES }),
    defs,
    dropped,
  };
}

function withDialect(source: Schema, place: Place): Place {
  if (source.$schema === undefined) return place;
  const declared = typeof source.$schema === "string" ? dialectOf(source.$schema) : undefined;
  if (declared === undefined) throw new Untranslatable(`${place.pointer}/$schema`, `unknown schema dialect ${JSON.stringify(source.$schema)}`);
  return { ...place, dialect: declared };
}

/** Keywords beside a 3.0 `$ref` that 3.0 ignores and that could change what validates. */
function refSiblings(source: Schema): string[] {
  return Object.keys(source).filter((key) => key !== "$ref" && !key.startsWith("x-") && !REF_SIBLINGS_3_0.has(key));
}

function refPointer(ref: string, at: string): string {
  if (!ref.startsWith("#")) throw new Untranslatable(at, `$ref "${ref}" points outside the document; load the document with loadDocument so it is bundled`);
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment !== "" && !fragment.startsWith("/")) throw new Untranslatable(at, `$ref "${ref}" names an anchor, which toolguard does not resolve`);
  return fragment;
}

function typesOf(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

// 3.0 (like draft-04) writes `exclusiveMinimum: true` beside `minimum`; 2020-12 writes the bound
// itself, and the inclusive bound goes (the exclusive one is the stronger of the two).
function translateBooleanExclusives(source: Schema, out: Schema): void {
  for (const [key, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (source[key] !== true || typeof source[bound] !== "number") continue;
    out[key] = source[bound];
    delete out[bound];
  }
}

function translateDependencies(value: unknown, pointer: string, out: Schema, nested: (value: unknown, pointer: string) => unknown): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Untranslatable(pointer, "`dependencies` must be an object");
  for (const [name, dependency] of Object.entries(value)) {
    const keyword = Array.isArray(dependency) ? "dependentRequired" : "dependentSchemas";
    const target = ((out[keyword] as Schema | undefined) ??= {});
    target[name] = Array.isArray(dependency) ? dependency : nested(dependency, `${pointer}/${pointerToken(name)}`);
  }
}

/** Follows `$ref`s in the original document to the schema they name. */
function resolved(document: unknown, node: unknown, depth = 0): Schema | undefined {
  if (node === null || typeof node !== "object" || Array.isArray(node) || depth > 32) return undefined;
  const ref = (node as Schema).$ref;
  if (typeof ref === "string" && ref.startsWith("#/"))
    return resolved(document, resolvePointer(document, decodeURIComponent(ref.slice(1))), depth + 1) ?? (node as Schema);
  return node as Schema;
}

function isReadOnly(document: unknown, node: unknown): boolean {
  if (node !== null && typeof node === "object" && (node as Schema).readOnly === true) return true;
  return resolved(document, node)?.readOnly === true;
}

/** Read-only property names of a schema and its `allOf` members: a request never sends them. */
function allOfReadOnlyNames(document: unknown, source: Schema, inherited: ReadonlySet<string>, depth = 0): Set<string> {
  const names = new Set(inherited);
  const properties = source.properties;
  if (properties !== null && typeof properties === "object") {
    for (const [name, child] of Object.entries(properties)) if (isReadOnly(document, child)) names.add(name);
  }
  if (Array.isArray(source.allOf) && depth < 16) {
    for (const member of source.allOf) {
      const target = resolved(document, member);
      if (target) for (const name of allOfReadOnlyNames(document, target, NO_NAMES, depth + 1)) names.add(name);
    }
  }
  return names;
}

// readOnly properties belong to responses: leave them out of what the model may send, and out
// of `required`, where OpenAPI says they only apply to responses.
function dropReadOnly(document: unknown, source: Schema, out: Schema, inherited: ReadonlySet<string>): void {
  const readOnly = allOfReadOnlyNames(document, source, inherited);
  if (readOnly.size === 0) return;
  const properties = out.properties as Schema | undefined;
  // Where extra properties are forbidden, a removed definition would make sending the property
  // an error, which the schema as written accepts: it stays defined, only not required.
  const closed = out.additionalProperties === false || out.unevaluatedProperties === false;
  if (properties && !closed) for (const name of readOnly) delete properties[name];
  if (Array.isArray(out.required)) {
    const required = out.required.filter((name) => !readOnly.has(name as string));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
}

// ajv's strict mode refuses a `required` name that the same schema's `properties` does not
// define, even when a parent does (`anyOf: [{required: [a]}, {required: [b]}]`). Defining it
// as `true` changes nothing, unless extra properties are forbidden, when no request can pass.
function defineRequired(out: Schema, pointer: string): void {
  if (!Array.isArray(out.required)) return;
  const properties = (out.properties as Schema | undefined) ?? {};
  for (const name of out.required as string[]) {
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

// ajv's strict mode wants a `type` beside type-specific keywords. OpenAPI documents often leave it
// implicit (`properties` without `type: object`); the type those keywords apply to is added, the
// one place where the translation narrows a schema, because an API never meant otherwise.
function inferType(out: Schema, parentTypes: readonly string[]): void {
  if (out.type !== undefined) return;
  const needed = new Set<string>();
  for (const key of Object.keys(out)) {
    const type = KEYWORD_TYPE[key];
    if (type) needed.add(type);
  }
  if (typeof out.format === "string") needed.add("string");
  const covered = [...needed].every((type) => parentTypes.includes(type) || (type === "number" && parentTypes.includes("integer")));
  if (needed.size === 0 || covered) return;
  out.type = needed.size === 1 ? [...needed][0] : [...needed].sort();
}

// ajv compiles patterns as Unicode regular expressions, which reject some loose syntax that
// plain JavaScript patterns accept (a lone `{`); such a pattern would not compile at all.
function checkPatterns(out: Schema, pointer: string): void {
  const patterns = [
    ...(typeof out.pattern === "string" ? [[out.pattern, `${pointer}/pattern`]] : []),
    ...Object.keys((out.patternProperties as Schema | undefined) ?? {}).map((key) => [key, `${pointer}/patternProperties`]),
  ];
  for (const [pattern, at] of patterns as [string, string][]) {
    try {
      new RegExp(pattern, "u");
    } catch (error) {
      // `\:` or `\-` outside a class: plain JavaScript reads an escaped character that has no
      // meaning as itself, Unicode mode refuses it. Written without the backslash, the same
      // pattern, which Unicode mode accepts (DigitalOcean's tag names: ^[a-zA-Z0-9_\-\:]+$).
      const plain = withoutIdentityEscapes(pattern);
      if (at.endsWith("/pattern") && plain !== pattern && compilesInUnicodeMode(plain) && compilesInUnicodeMode(pattern, false)) {
        out.pattern = plain;
        continue;
      }
      throw new Untranslatable(
        at,
        `pattern ${JSON.stringify(pattern)} is not a valid Unicode regular expression (${(error as Error).message}); escape literal braces and brackets`,
      );
    }
  }
}

function compilesInUnicodeMode(pattern: string, unicode = true): boolean {
  try {
    new RegExp(pattern, unicode ? "u" : "");
    return true;
  } catch {
    return false;
  }
}

/** Characters whose escape Unicode mode allows everywhere (the syntax characters and `/`). */
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

/**
 * The pattern with identity escapes of punctuation removed where Unicode mode refuses them:
 * `\:` anywhere, `\-` outside a class (inside one, Unicode mode keeps `\-`). Letters, digits
 * and syntax characters keep their escapes.
 */
function withoutIdentityEscapes(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "\\" && index + 1 < pattern.length) {
      const next = pattern[index + 1] as string;
      const needless = !/[A-Za-z0-9]/.test(next) && !SYNTAX.has(next) && !(next === "-" && inClass) && next.charCodeAt(0) < 128;
      out += needless ? next : char + next;
      index++;
      continue;
    }
    if (char === "[" && !inClass) inClass = true;
    else if (char === "]" && inClass) inClass = false;
    out += char;
  }
  return out;
}

function applies(keywordType: string, types: readonly string[]): boolean {
  return types.includes(keywordType) || (keywordType === "number" && types.includes("integer"));
}

// A keyword for another type (`minLength` on an integer) never applies, so it asserts nothing;
// ajv's strict mode refuses it, so it goes, and a `$comment` says so for the reviewer.
function dropInapplicable(out: Schema): void {
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
function splitUnionType(out: Schema): Schema {
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

const ANNOTATION_KEYS = new Set([...KEPT_ANNOTATIONS, "examples"]);

/** 3.0's `nullable: true`: null is allowed beside whatever the schema already allows. */
function allowNull(out: Schema): Schema {
  const types = typesOf(out.type);
  const hasApplicator = APPLICATORS.some((key) => out[key] !== undefined);
  if (!hasApplicator && types.length > 0) {
    if (!types.includes("null")) out.type = [...types, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (!hasApplicator && Array.isArray(out.enum)) {
    if (!out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (!hasApplicator) return out; // no type: null is already allowed
  const wrapped: Schema = {};
  const assertions: Schema = {};
  for (const [key, value] of Object.entries(out)) (ANNOTATION_KEYS.has(key) ? wrapped : assertions)[key] = value;
  wrapped.anyOf = [assertions, { type: "null" }];
  return wrapped;
}
