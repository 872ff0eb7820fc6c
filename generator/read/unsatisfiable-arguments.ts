// An argument whose schema admits no value: `false`, `not: {}`, or an empty `enum`, which JSON
// Schema allows (an enum SHOULD have an element, it need not) and which admits nothing. Vendors
// write it (Discord's join-request `status`: `enum: []` beside an `allOf`), and MCP servers
// generate it from an empty list. Every call that sends such an argument is refused, so:
// - a required one (through required objects from the top) means the tool can never be called:
//   it is skipped with that reason (--strict: an error), rather than shown to a model that can
//   only fail;
// - an optional one is generated, with a warning that a call must leave it out.
// A tool file's `enum: []` is first spelt `not: {}`, as the OpenAPI translation does, since the
// guard's ajv refuses to compile it ("enum must have non-empty array"); before this, that refused
// the whole run with a fix about unknown keywords.
import { escapeToken, localRefTarget } from "../../templates/runtime/json/json-pointer.ts";
import type { ToolDescription } from "../ir.ts";
import { isSchemaObject, type Schema, walkSchemas } from "../schema-walk.ts";
import { emptyEnum } from "./openapi/strict-mode-shapes.ts";

/** How deep into nested objects arguments are looked for; deeper ones are left to the guard. */
const MAX_DEPTH = 32;

export type Satisfiable = { readonly tool: ToolDescription } | { readonly never: string };

/**
 * The tool with its empty enums spelt and a warning per optional argument that admits no value,
 * or (`never`) why no call of it can pass: a required argument that admits none.
 */
export function checkSatisfiable(tool: ToolDescription): Satisfiable {
  const inputSchema = tool.http === undefined ? speltEmptyEnums(tool.inputSchema) : tool.inputSchema;
  const found = argumentsAdmittingNothing(inputSchema);
  const required = found.find((argument) => argument.required);
  if (required !== undefined) {
    return {
      never: `argument "${required.name}" is required but its schema accepts no value (an empty \`enum\`, \`false\` or \`not: {}\`), so no call of this tool can pass (at input schema ${required.location})`,
    };
  }
  const warnings = found.map(
    (argument) =>
      `argument "${argument.name}" at input schema ${argument.location} accepts no value (an empty \`enum\`, \`false\` or \`not: {}\`): every call that sends it is refused, so it can only be left out`,
  );
  if (warnings.length === 0 && inputSchema === tool.inputSchema) return { tool };
  return { tool: { ...tool, inputSchema, ...(warnings.length > 0 ? { warnings: [...(tool.warnings ?? []), ...warnings] } : {}) } };
}

/** A copy with every `enum: []` spelt `not: {}` (the same meaning), or the schema itself when it has none. */
function speltEmptyEnums(schema: Schema): Schema {
  let any = false;
  walkSchemas(schema, (node) => {
    if (Array.isArray(node.enum) && node.enum.length === 0) any = true;
  });
  if (!any) return schema;
  const copy = structuredClone(schema);
  walkSchemas(copy, (node) => emptyEnum(node));
  return copy;
}

interface Found {
  /** The argument's name, dotted from the top (`filter.status`). */
  readonly name: string;
  /** Its place in the input schema, as ajv names places (`#/properties/filter/properties/status`). */
  readonly location: string;
  /** Whether every object on the way to it, and it, is required. */
  readonly required: boolean;
}

/**
 * The properties, at any depth of nested objects, whose schema admits no value. Each schema is
 * visited once as required and once as optional, and each is named by the first way it is
 * reached: `$ref`s may share one definition between 10^10 places (test/hostile/generation.test.ts),
 * and one name per definition says all there is to say.
 */
function argumentsAdmittingNothing(root: Schema): Found[] {
  const found: Found[] = [];
  const visited = new Set<Schema>();
  const visitedRequired = new Set<Schema>();
  const empty = new Map<Schema, boolean>();
  const visit = (schema: Schema, location: string, name: string, required: boolean, depth: number, seen: ReadonlySet<string>): void => {
    if (depth > MAX_DEPTH) return;
    const done = required ? visitedRequired : visited;
    if (done.has(schema)) return;
    done.add(schema);
    for (const { owner, at, via } of objectParts(root, schema, location, seen)) {
      const properties = owner.properties;
      if (!isSchemaObject(properties)) continue;
      const names = Array.isArray(owner.required) ? (owner.required as unknown[]) : [];
      for (const [key, child] of Object.entries(properties)) {
        const childName = name === "" ? key : `${name}.${key}`;
        const childLocation = `${at}/properties/${encodeURIComponent(escapeToken(key))}`;
        const childRequired = required && names.includes(key);
        if (admitsNothing(root, child, empty)) found.push({ name: childName, location: childLocation, required: childRequired });
        else if (isSchemaObject(child)) visit(child, childLocation, childName, childRequired, depth + 1, via);
      }
    }
  };
  visit(root, "#", "", true, 0, new Set());
  return found;
}

/**
 * The schema and the parts that hold its properties with it: its `allOf` members and what
 * its `$ref`s point to, each with its place and the refs followed to reach it.
 */
function objectParts(root: Schema, schema: Schema, location: string, seen: ReadonlySet<string>): { owner: Schema; at: string; via: ReadonlySet<string> }[] {
  const parts = [{ owner: schema, at: location, via: seen }];
  const ref = schema.$ref;
  if (typeof ref === "string" && !seen.has(ref)) {
    const target = localRefTarget(root, ref);
    if (isSchemaObject(target)) parts.push(...objectParts(root, target, ref, new Set([...seen, ref])));
  }
  if (Array.isArray(schema.allOf))
    for (const [index, member] of schema.allOf.entries())
      if (isSchemaObject(member)) parts.push(...objectParts(root, member, `${location}/allOf/${index}`, seen));
  return parts;
}

/**
 * Whether no value passes `schema`: `false`, `not` of everything, an empty enum, or such a part.
 * Each schema object is answered once (`answered`): shared definitions cost one look, and a
 * `$ref` cycle meets its own schema's provisional answer instead of following itself.
 */
function admitsNothing(root: Schema, schema: unknown, answered: Map<Schema, boolean>): boolean {
  if (schema === false) return true;
  if (!isSchemaObject(schema)) return false;
  const known = answered.get(schema);
  if (known !== undefined) return known;
  answered.set(schema, false); // a cycle back to this schema admits what the rest admits
  const answer = admitsNothingAt(root, schema, answered);
  answered.set(schema, answer);
  return answer;
}

function admitsNothingAt(root: Schema, schema: Schema, answered: Map<Schema, boolean>): boolean {
  const not = schema.not;
  if (not === true || (isSchemaObject(not) && Object.keys(not).length === 0)) return true;
  if (Array.isArray(schema.enum) && schema.enum.length === 0) return true;
  if (Array.isArray(schema.allOf) && schema.allOf.some((member) => admitsNothing(root, member, answered))) return true;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((branch) => admitsNothing(root, branch, answered))) return true;
  }
  return typeof schema.$ref === "string" && admitsNothing(root, localRefTarget(root, schema.$ref), answered);
}
