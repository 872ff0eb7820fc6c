// Translates OpenAPI schemas (3.0's dialect, 3.1's 2020-12 with OpenAPI's vocabulary, or a
// declared draft-07) into self-contained 2020-12 schemas for request arguments. `$ref`s stay
// references: each target is translated once per tool into its `$defs`, so recursion stays
// finite. Anything that cannot be translated faithfully throws `Untranslatable` naming the node.
// This file walks the schema and routes each keyword; the rules that reshape a translated node
// live beside it, one file per rule (nullable.ts, read-only-properties.ts, strict-mode-shapes.ts,
// unicode-patterns.ts, older-dialect-keywords.ts, discriminator.ts, formats.ts).

import { decodeToken, pointerToken, resolvePointer } from "../../json-pointer.ts";
import { refTo, uniqueName } from "../../load/localize-schema.ts";
import { REFERENCE_KEYWORD } from "../references.ts";
import { typesOf } from "./declared-types.ts";
import { applyDiscriminator } from "./discriminator.ts";
import { translateFormat } from "./formats.ts";
import { allowNull } from "./nullable.ts";
import { translateBooleanExclusives, translateDependencies } from "./older-dialect-keywords.ts";
import { allOfReadOnlyNames, dropReadOnly } from "./read-only-properties.ts";
import { dynamicTarget, isAnchored, reachesRecursiveRef, recursiveTarget } from "./recursive-refs.ts";
import { dialectOf, type SchemaDialect } from "./schema-dialect.ts";
import {
  DROPPED_KEYWORDS,
  DYNAMIC_ANCHORS,
  KEPT_ANNOTATIONS,
  SINGLE_SUBSCHEMA,
  SUBSCHEMA_ARRAY,
  SUBSCHEMA_MAP,
  UNSUPPORTED_KEYWORDS,
  VALUE_ASSERTIONS,
} from "./schema-keywords.ts";
import { defineRequired, dropInapplicable, emptyEnum, splitUnionType } from "./strict-mode-shapes.ts";
import { checkPatterns } from "./unicode-patterns.ts";
import { unionBackReference, unionBase } from "./union-base-refs.ts";
import { refPointer, refSiblings } from "./ref-pointer.ts";
import { Untranslatable } from "./untranslatable.ts";
import { mapEntries } from "./referenced-map.ts";

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
  /**
   * `unknown`: not a JSON Schema or OpenAPI keyword; `beside-ref`: OpenAPI 3.0 ignores it beside
   * `$ref`; `oas30-id`: an `$id` in OpenAPI 3.0, whose Schema Object has none (never refused);
   * `malformed-annotation`: an annotation of the wrong shape (`examples` that is no array, `description: 42`).
   */
  readonly why: "unknown" | "beside-ref" | "oas30-id" | "malformed-annotation";
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

/** The JSON type the 2020-12 meta-schema gives each kept annotation (`default` takes any value). */
export const ANNOTATION_SHAPE: Readonly<Record<string, "string" | "boolean">> = {
  title: "string",
  description: "string",
  $comment: "string",
  contentMediaType: "string",
  contentEncoding: "string",
  deprecated: "boolean",
  readOnly: "boolean",
  writeOnly: "boolean",
};

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
    const local = refTo(`/$defs/${pointerToken(name)}`);
    importedAs.set(key, local);
    if (!imported.has(target)) imported.set(target, local);
    defs[name] = schema(value, { pointer: target, dialect: current, parentTypes: [], readOnlyNames: NO_NAMES, outermostAnchor: inside });
    return local;
  };

  // A subclass's `allOf` member naming the union that lists it: the union's base (union-base-refs.ts).
  const importBase = (target: string, current: SchemaDialect): string => {
    const key = `${target} as a base`;
    const known = importedAs.get(key);
    if (known !== undefined) return known;
    const name = uniqueName(`${decodeToken(target.split("/").pop() || "root")}Base`, names);
    const local = refTo(`/$defs/${pointerToken(name)}`);
    importedAs.set(key, local);
    const base = unionBase(resolvePointer(document, target) as Schema);
    defs[name] = schema(base, { pointer: target, dialect: current, parentTypes: [], readOnlyNames: NO_NAMES });
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
      // A reference field's annotation goes on to the operation's tool, which lifts it out of
      // the schema into its reference table (operation-tool.ts); other extensions are dropped.
      if (key === REFERENCE_KEYWORD) {
        out[key] = value;
        continue;
      }
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
      // OpenAPI 3.0's Schema Object has no `$id` (akeneo.com writes one): it identifies nothing
      // there, so `#` stays the document; left out with a warning. In 3.1 (2020-12, draft-07) it
      // is an identifier.
      if (key === "$id" && here.dialect === "oas30") {
        drop(at(key), "oas30-id");
        continue;
      }
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
        // `examples` is an annotation: a malformed one (an OpenAPI Example map where JSON Schema
        // wants an array, as SendGrid writes it) asserts nothing, so it is left out with a warning
        // rather than costing its operation; --strict still refuses it.
        if (!Array.isArray(value)) {
          if (options.unknownKeywords !== "drop") throw new Untranslatable(at(key), "a schema's `examples` must be an array");
          drop(at(key), "malformed-annotation");
          continue;
        }
        examples.push(...value);
      } else if (KEPT_ANNOTATIONS.has(key)) {
        // An annotation of the wrong type (`description: 42`, `deprecated: "yes"`) asserts
        // nothing, but the meta-schema refuses it, which cost its whole operation: left out with
        // a warning instead; --strict still refuses it.
        const shape = ANNOTATION_SHAPE[key];
        if (shape !== undefined && typeof value !== shape) {
          if (options.unknownKeywords !== "drop") throw new Untranslatable(at(key), `\`${key}\` must be a ${shape}`);
          drop(at(key), "malformed-annotation");
          continue;
        }
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
        out[key] = value.map((item, index) => {
          const union = key === "allOf" ? unionBackReference(document, item, here.pointer, (ref) => refPointer(ref, at(key))) : undefined;
          if (union !== undefined) return { $ref: importBase(union, here.dialect) };
          return key === "prefixItems" ? nested(item, `${at(key)}/${index}`) : branch(key, item, `${at(key)}/${index}`, inherited);
        });
      } else if (SUBSCHEMA_MAP.has(key)) {
        if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Untranslatable(at(key), `\`${key}\` must map names to schemas`);
        const map: Schema = {};
        for (const entry of mapEntries(document, key, value as Schema, at(key))) map[entry.name] = nested(entry.value, entry.pointer);
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
    if (examples.length > 0) out.examples = examples;
    const typed = splitUnionType(source.nullable === true ? allowNull(out) : out);
    emptyEnum(typed);
    return typed;
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
