// Builds the strict coercion table of a tool: the instance paths where the schema's type is
// unambiguous and excludes strings, so that a string there can only be a mis-typed number or
// boolean. Only deterministic keywords are followed (properties, items, prefixItems, allOf and
// local $refs); anything under anyOf, oneOf, conditionals or additionalProperties is left out,
// because there the schema does not say which type the value must have.
import type { CoercionTable, CoercionTarget } from "../../templates/runtime/contract/tool-spec.ts";
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";

import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { pointerToken, resolvePointer } from "../json-pointer.ts";
import { countLocations } from "./location-count.ts";

/** Most argument locations one tool's schema may expand into through its $refs, beyond those it writes out. */
export const MAX_LOCATIONS = 20_000;

export function buildCoercionTable(tool: ToolDescription): CoercionTable {
  const table: Record<string, CoercionTarget> = {};
  const root = tool.inputSchema as Schema;

  // Following $refs expands them: ten definitions that each use the next ten times stand for
  // 10^10 locations. They are counted first without expanding them (location-count.ts), and
  // past the bound the schema is refused instead of hanging generation. Locations the schema
  // writes out cost what reading them cost, so only what the $refs add counts against the bound.
  const { expanded, written } = countLocations(root);
  const fanOut = (detail: string): InputError =>
    new InputError(
      tool.source,
      `tool ${tool.name}: its $refs expand into more than ${MAX_LOCATIONS} argument locations beyond the ${written} it writes out (a reference fan-out; ${detail})`,
      "share less: a tool's arguments should not multiply through nested $refs; flatten or split the tool",
    );
  if (expanded - written > MAX_LOCATIONS) throw fanOut(`${Number.isSafeInteger(expanded) ? expanded : expanded.toPrecision(3)} in all`);
  // Recursion is counted once above, but followed here once per path that reaches it: a few
  // definitions that all refer to each other are far more paths than definitions.
  let visits = 0;
  const visit = (schema: Schema, instancePath: string, refsSeen: ReadonlySet<string>): void => {
    if (++visits > written + MAX_LOCATIONS) throw fanOut(`reached ${instancePath} through recursive $refs`);
    const parts = collectAllOf(schema, root, refsSeen);
    const target = coercionTarget(parts.map((part) => part.schema));
    if (target && instancePath !== "") table[instancePath] = target;
    for (const { schema: part, refsSeen: seen } of parts) {
      if (isSchemaObject(part.properties)) {
        for (const [name, child] of Object.entries(part.properties)) {
          if (isSchemaObject(child)) visit(child, `${instancePath}/${pointerToken(name)}`, seen);
        }
      }
      if (isSchemaObject(part.items)) visit(part.items, `${instancePath}/*`, seen);
      if (Array.isArray(part.prefixItems)) {
        part.prefixItems.forEach((child, index) => {
          if (isSchemaObject(child)) visit(child, `${instancePath}/${index}`, seen);
        });
      }
    }
  };
  visit(root, "", new Set());
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// The schemas that all apply at one location: the schema itself, its allOf branches and the
// targets of its local $refs. A $ref seen before on this path is recursion: stop there.
function collectAllOf(schema: Schema, root: Schema, refsSeen: ReadonlySet<string>): { schema: Schema; refsSeen: ReadonlySet<string> }[] {
  const out: { schema: Schema; refsSeen: ReadonlySet<string> }[] = [{ schema, refsSeen }];
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#") && !refsSeen.has(schema.$ref)) {
    const target = resolvePointer(root, decodeURIComponent(schema.$ref.slice(1)));
    if (isSchemaObject(target)) out.push(...collectAllOf(target, root, new Set([...refsSeen, schema.$ref])));
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) if (isSchemaObject(branch)) out.push(...collectAllOf(branch, root, refsSeen));
  }
  return out;
}

function typesOf(schema: Schema): readonly string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  return undefined;
}

function coercionTarget(schemas: readonly Schema[]): CoercionTarget | undefined {
  // Every applying schema that states a type constrains the value; together they must leave
  // exactly one non-null scalar kind, and never a string.
  let allowed: Set<string> | undefined;
  for (const schema of schemas) {
    const types = typesOf(schema);
    if (types) allowed = allowed ? intersectTypes(allowed, new Set(types)) : new Set(types);
  }
  if (!allowed || allowed.has("string")) return undefined;
  allowed.delete("null");
  if (allowed.size !== 1) return undefined;
  const [only] = allowed;
  return only === "number" || only === "integer" || only === "boolean" ? only : undefined;
}

// JSON Schema's "number" includes the integers, so number with integer leaves integer.
function intersectTypes(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const type of a) {
    if (b.has(type)) out.add(type);
    else if ((type === "number" && b.has("integer")) || (type === "integer" && b.has("number"))) out.add("integer");
  }
  return out;
}
