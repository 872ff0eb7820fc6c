// Builds the error-hint table of a tool: for each schema location, what an error message there
// can offer the model (allowed values, near misses, one canonical example, the allowed keys,
// the description of a required field, where a field sent at the wrong level belongs, which
// union branch a value's type or fields single out, whether `null` means "omit it"). Computed
// once at build time so a failed call never walks the schema (docs/errors.md).
import type { HintTable, JsonValue, SchemaHint } from "../../templates/runtime/contract/tool-spec.ts";
import type { ToolDescription } from "../ir.ts";
import { exampleOf } from "./hint-examples.ts";
import { isSchemaObject, schemaPathToken, walkSchemas, type Schema } from "../schema-walk.ts";
import { optionalTagOf, readings } from "./union-branches.ts";
import { unionTagOf } from "./nullable-union-tag.ts";
import { spellingTable } from "./spelling-table.ts";
import { moveChoices, moveTable, propertiesOf } from "./move-table.ts";
import { referrersOf, undeclaredAbove } from "./holders.ts";
import { memberKeys, objectsOnly, typeBranches, wordsOf } from "./union-members.ts";
import { descriptionWords } from "./description-words.ts";
import { textWrapperOf } from "./text-wrapper.ts";
import { pointerToken } from "../json-pointer.ts";
import { referenceOf, referredAt } from "./referred-at.ts";
import { itemTypeOf } from "./item-type.ts";
import { nullableBranchOf } from "./nullable-branch.ts";
import { nearMissesOf, onlyValue } from "./hint-values.ts";

/** Enums up to this size are listed in full; larger ones get one example. */
export const MAX_LISTED_VALUES = 12;
/** Allowed keys listed for an unknown-key error, at most. */
const MAX_LISTED_KEYS = 40;
/** The most names of a closed object kept for spelling its unknown keys (the message lists at most 40). */
const MAX_NAMED_KEYS = 1000;
/** Descriptions are cut to this length: the message is a prompt, not documentation. */
const MAX_DESCRIPTION = 160;

/** The moves of `moves` whose place is inside one of the `required` fields; undefined when none. */
function movesInto(moves: Record<string, string> | undefined, required: readonly string[]): Record<string, string> | undefined {
  if (moves === undefined) return undefined;
  const kept = Object.entries(moves).filter(([, target]) => required.some((name) => target.startsWith(`${pointerToken(name)}/`)));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

export type MutableHint = { -readonly [K in keyof SchemaHint]: SchemaHint[K] };

export function buildHintTable(tool: ToolDescription): HintTable {
  const schemas = new Map<string, Schema>();
  walkSchemas(tool.inputSchema, (schema, location) => void schemas.set(location, schema));
  // A definition's parents are the objects whose properties `$ref` it: its errors are reported
  // at the definition, so a field sent one level too high is looked for beside it in each.
  const referrers = referrersOf(schemas);
  const hints = new Map<string, MutableHint>();
  for (const [location, schema] of schemas) {
    // The object this one is a property of, when it is one: a field sent one level too deep belongs
    // there. A union's branch is the property's value too (Notion's `parent`: `anyOf: [{page_id},
    // string]`), so its holder is the object that has the union as a property.
    const parentAt = /^(.*)\/properties\/[^/]+(?:\/(?:anyOf|oneOf)\/\d+)*$/.exec(location)?.[1];
    const parent = parentAt === undefined ? undefined : schemas.get(parentAt);
    hints.set(location, hintFor(schema, tool.inputSchema, parent, parent === undefined ? referrers.get(location) : [parent]));
  }
  // A property its object does not require may be left out: `null` there means "omit it". A
  // property that is a `$ref` reports its errors at the definition, which is optional only when
  // every property referring to it is.
  // A definition used both ways (Discord's `SnowflakeType`: a required `webhook_id`, an optional
  // `thread_id`) is optional under the names every one of whose uses is.
  const definitionUses = new Map<string, boolean>();
  const usesByName = new Map<string, Map<string, boolean>>();
  for (const [location, schema] of schemas) {
    if (!isSchemaObject(schema.properties)) continue;
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const [name, property] of Object.entries(schema.properties)) {
      const optional = !required.includes(name);
      const ref = referenceOf(property);
      if (ref !== undefined) {
        definitionUses.set(ref, (definitionUses.get(ref) ?? true) && optional);
        const names = usesByName.get(ref) ?? new Map<string, boolean>();
        names.set(name, (names.get(name) ?? true) && optional);
        usesByName.set(ref, names);
      }
      const hint = hints.get(`${location}/properties/${schemaPathToken(name)}`);
      if (hint && optional) hint.optional = true;
    }
  }
  for (const [ref, optional] of definitionUses) {
    const hint = hints.get(ref);
    if (hint === undefined) continue;
    if (optional) hint.optional = true;
    else {
      const names = [...(usesByName.get(ref) ?? [])].filter(([, always]) => always).map(([name]) => name);
      if (names.length > 0) hint.optionalAs = names.sort();
    }
  }
  referredAt(schemas, hints);
  const table: Record<string, SchemaHint> = {};
  for (const [location, hint] of hints) if (Object.keys(hint).length > 0) table[location] = hint;
  return table;
}

/**
 * `parent`: the object this schema is a property of (for the move table); `holders`: every object
 * that holds it as a property (that one, or for a definition each object whose property `$ref`s it).
 */
function hintFor(schema: Schema, root: unknown, parent: Schema | undefined, holders: readonly Schema[] | undefined): MutableHint {
  const hint: MutableHint = {};
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === "string") : undefined;
  if (types) hint.types = types;
  const values = Array.isArray(schema.enum) ? (schema.enum as JsonValue[]) : "const" in schema ? [schema.const as JsonValue] : undefined;
  if (values && values.length <= MAX_LISTED_VALUES) hint.allowed = values;
  if (values) {
    const nearMisses = nearMissesOf(values);
    if (Object.keys(nearMisses).length > 0) hint.nearMisses = nearMisses;
    // A listed set is compared against directly (explain/spelling.ts); only a set too large to
    // list gets a deletion table, so that the failure path never compares against dozens of values.
    const spellings = hint.allowed ? undefined : spellingTable(values);
    if (spellings) hint.spellings = spellings;
  }
  if (typeof schema.format === "string") hint.format = schema.format;
  const shape = nullableBranchOf(schema, root) ?? schema; // `anyOf: [S, {type: null}]` reads as S here
  const items = isSchemaObject(shape.items) ? shape.items : undefined;
  const itemType = items && itemTypeOf(items, root);
  if (itemType !== undefined) hint.itemType = itemType;
  const wrapper = textWrapperOf(shape, root, shape === schema ? parent : undefined);
  if (wrapper) hint.textWrapper = wrapper;
  const range: Record<string, number> = {};
  for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] as const) {
    if (typeof schema[keyword] === "number") range[keyword] = schema[keyword];
  }
  if (Object.keys(range).length > 0) hint.range = range;
  if (!hint.allowed) {
    const example = exampleOf(schema, values);
    if (example !== undefined) hint.example = example;
  }
  if (isSchemaObject(schema.properties)) {
    const names = Object.keys(schema.properties);
    const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
    // Every name of a closed object, however many: a misspelt one among 45 query parameters
    // (gRPC-gateway's) got "remove it" with no name to rename it to. The message lists them only
    // up to its own bound (explain/rules/unknown-field.ts).
    if (closed && names.length <= MAX_NAMED_KEYS) hint.properties = names;
    // An open object with required fields: a misspelt required name arrives as a name it does not declare.
    else if (!closed && names.length <= MAX_LISTED_KEYS && Array.isArray(schema.required) && schema.required.length > 0) hint.declared = names;
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    if (closed) {
      const moves = moveTable(schema, parent, root);
      if (moves) hint.moves = moves;
      const choices = moveChoices(schema, parent, root);
      if (choices) hint.moveChoices = choices;
    } else if (required.length > 0) {
      // An open object takes a required field's fields sent beside it without an error of their
      // own (BFCL's `body` left out, its fields at the top level): the missing field's message
      // names each move, so only the moves into a required field are kept.
      const moves = movesInto(moveTable(schema, parent, root), required);
      if (moves) hint.moves = moves;
    }
    const descriptions: Record<string, string> = {};
    const examples: Record<string, JsonValue> = {};
    const onlyValues: Record<string, JsonValue> = {};
    const aliases: Record<string, string[]> = {};
    const misplaced: Record<string, string[]> = {};
    for (const name of required) {
      const property = (schema.properties as Record<string, unknown>)[name];
      if (!isSchemaObject(property)) continue;
      const described = typeof property.description === "string" && property.description.trim() !== "" ? property.description.trim() : undefined;
      // A missing boolean hears its two values: which one is the user's to say, but not what they are.
      const boolean = readings(property, root).some((view) => view.type === "boolean");
      if (described !== undefined || boolean)
        descriptions[name] = shorten(boolean ? `true or false${described ? `: ${described}` : ""}` : (described as string));
      const example = exampleOf(property, Array.isArray(property.enum) ? (property.enum as JsonValue[]) : undefined);
      if (example !== undefined) examples[name] = example;
      const only = onlyValue(property, root);
      if (only !== undefined) onlyValues[name] = only;
      const places = misplacedIn(schema.properties as Record<string, unknown>, name, root);
      // Sent beside this object instead of inside it, where no object holding it declares the name.
      if (undeclaredAbove([name], holders, root).length > 0) places.push(`../${pointerToken(name)}`);
      if (places.length > 0) misplaced[name] = places;
      const words = typeof property.description === "string" ? descriptionWords(property.description, names) : [];
      if (words.length > 0) aliases[name] = words;
    }
    if (Object.keys(descriptions).length > 0) hint.propertyDescriptions = descriptions;
    if (Object.keys(examples).length > 0) hint.propertyExamples = examples;
    if (Object.keys(onlyValues).length > 0) hint.propertyValues = onlyValues;
    if (Object.keys(aliases).length > 0) hint.aliases = aliases;
    if (Object.keys(misplaced).length > 0) hint.misplaced = misplaced;
    // An object that must hold a field (RunPod's rename body, `minProperties: 1`) sent empty
    // beside its own field: the names that would be that field, for the bound's message.
    const fromAbove = typeof schema.minProperties === "number" && schema.minProperties > 0 ? undeclaredAbove(names, holders, root) : [];
    if (fromAbove.length > 0) hint.sentAbove = fromAbove;
  }
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = schema[keyword];
    const discriminator = Array.isArray(branches) ? unionTagOf(branches, root) : undefined;
    if (discriminator) hint.discriminator = discriminator;
    else if (keyword === "oneOf" && Array.isArray(branches) && branches.every(isSchemaObject)) {
      const optional = optionalTagOf(branches, root);
      if (optional) hint.optionalTag = optional;
    }
    if (Array.isArray(branches) && branches.every(isSchemaObject)) {
      unionHints(hint, branches, root);
      // What a member requires, sent one level up where no holder declares it, belongs here.
      const names = undeclaredAbove([...new Set(hint.branchRequired?.flat() ?? [])], holders, root);
      if (names.length > 0) hint.branchRequiredAbove = names.sort();
      break;
    }
  }
  return hint;
}

/** What a union offers when no branch is singled out: its types, a documented example, how to pick a branch. */
function unionHints(hint: MutableHint, branches: readonly Schema[], root: unknown): void {
  const byType = typeBranches(branches, root);
  if (byType) {
    hint.typeBranches = byType;
    hint.types ??= [...new Set(Object.keys(byType).filter((type) => type !== "integer" || !("number" in byType)))];
  } else if (hint.types === undefined && objectsOnly(branches, root)) hint.objectUnion = true;
  stringChoices(hint, branches, root);
  const words =
    byType?.["string"] === undefined || hint.allowed !== undefined ? undefined : wordsOf(branches[byType["string"]] as Schema, root, MAX_LISTED_VALUES);
  if (words) hint.words = words;
  const members = memberKeys(branches, root);
  if (members) hint.memberKeys = members;
  // Per object branch, what it requires: a value fitting no branch hears what each one lacks.
  // Over all of a branch's readings: a `$ref` branch that pins its tag beside the reference
  // requires the tag there and the member's own fields in the target.
  const required = branches.map((branch) => {
    const names = readings(branch, root).flatMap((view) =>
      Array.isArray(view.required) ? view.required.filter((name): name is string => typeof name === "string") : [],
    );
    return names.length === 0 ? undefined : [...new Set(names)];
  });
  if (required.every((names) => names !== undefined && names.length > 0)) hint.branchRequired = required as string[][];
  if (hint.example === undefined && hint.allowed === undefined) {
    for (const branch of branches) {
      const example = exampleOf(branch, Array.isArray(branch.enum) ? (branch.enum as JsonValue[]) : undefined);
      if (example !== undefined && (typeof example !== "object" || example === null)) {
        hint.example = example;
        break;
      }
    }
  }
}

/**
 * A union of string values and patterns (`anyOf: [{enum: [...]}, {const: "x"}, {pattern}]`): the
 * values it lists, for the message and its near misses, and the patterns, so that a value fitting
 * none hears what it may be instead of only "matches none of the allowed shapes".
 */
function stringChoices(hint: MutableHint, branches: readonly Schema[], root: unknown): void {
  const values: JsonValue[] = [];
  const patterns: string[] = [];
  for (const branch of branches) {
    const view = readings(branch, root).find((reading) => "const" in reading || Array.isArray(reading.enum) || typeof reading.pattern === "string");
    if (view === undefined) return;
    if ("const" in view) values.push(view.const as JsonValue);
    else if (Array.isArray(view.enum)) values.push(...(view.enum as JsonValue[]));
    else if (view.type === "string" || view.type === undefined) patterns.push(view.pattern as string);
    else return;
  }
  if (!values.every((value) => typeof value === "string")) return;
  if (values.length > 0 && hint.allowed === undefined && values.length <= MAX_LISTED_VALUES) hint.allowed = values;
  if (values.length > 0 && hint.nearMisses === undefined) {
    const nearMisses = nearMissesOf(values);
    if (Object.keys(nearMisses).length > 0) hint.nearMisses = nearMisses;
  }
  // A set too large to list (Cloudinary's delivery `type`: six enums, 24 values) gets the deletion
  // table an `enum` of that size gets, so a misspelt value is still read (`privated`).
  if (values.length > 0 && hint.allowed === undefined && hint.spellings === undefined) {
    const spellings = spellingTable(values);
    if (spellings) hint.spellings = spellings;
  }
  if (patterns.length > 0) hint.patterns = patterns;
}

/** The nested objects of an object (its object-typed properties) that do not declare `name`: where a model may put it by mistake. */
function misplacedIn(properties: Record<string, unknown>, name: string, root: unknown): string[] {
  const places: string[] = [];
  for (const [child, schema] of Object.entries(properties)) {
    if (child === name || !isSchemaObject(schema)) continue;
    const nested = propertiesOf(schema, root);
    if (nested !== undefined && !Object.hasOwn(nested, name)) places.push(`${pointerToken(child)}/${pointerToken(name)}`);
  }
  return places;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, " ");
  return single.length <= MAX_DESCRIPTION ? single : `${single.slice(0, MAX_DESCRIPTION - 1)}…`;
}
