// Every subschema of an input schema that a call can reach, with its plain JSON Pointer, and,
// where the node describes one place in the arguments (reached through `properties`, `items`,
// `prefixItems` and the combinators only), that place as the reference table writes it
// (`/line_items/*/sku`). A definition is visited where it is (`/$defs/line_item`), once, and
// only when a local `$ref` reaches it: tool files that carry a shared `$defs` block whole get
// no advice about definitions they do not use. Under `$defs` the place is not known: one
// definition may serve several.
import { pointer as joinPointer, pointerToken, resolveLocalRef } from "../json-pointer.ts";
import { isSchemaObject, SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS, type Schema } from "../schema-walk.ts";

export interface SchemaNode {
  readonly node: Schema;
  /** Where the node is in the input schema (`/properties/line_items/items`). */
  readonly pointer: string;
  /** The place in the arguments the node describes, when it has one. */
  readonly field: string | undefined;
}

/** A property of an object schema: its name, schema, and whether the object requires it. */
export interface PropertyNode extends SchemaNode {
  readonly name: string;
  readonly required: boolean;
  /** The object schema that declares the property. */
  readonly parent: Schema;
}

/** Every reachable subschema, parents before children. */
export function schemaNodes(schema: unknown): SchemaNode[] {
  const out: SchemaNode[] = [];
  const reached = new Set<string>();
  const visit = (node: unknown, at: string, field: string | undefined): void => {
    if (!isSchemaObject(node)) return;
    out.push({ node, pointer: at, field });
    const ref = node["$ref"];
    if (typeof ref === "string" && ref.startsWith("#")) {
      const target = resolveLocalRef(schema, ref);
      const where = fragmentPointer(ref);
      if (target !== undefined && where !== undefined && !reached.has(where)) {
        reached.add(where);
        visit(target, where, undefined);
      }
    }
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === "$defs" || keyword === "definitions") continue;
      const here = `${at}/${pointerToken(keyword)}`;
      if (keyword === "properties" && isSchemaObject(value)) {
        for (const [name, child] of Object.entries(value))
          visit(child, `${here}/${pointerToken(name)}`, field === undefined ? undefined : `${field}/${pointerToken(name)}`);
      } else if (keyword === "items" && !Array.isArray(value)) {
        visit(value, here, field === undefined ? undefined : `${field}/*`);
      } else if ((keyword === "prefixItems" || keyword === "items") && Array.isArray(value)) {
        for (const [index, child] of value.entries()) visit(child, `${here}/${index}`, field === undefined ? undefined : `${field}/${index}`);
      } else if (keyword === "allOf" || keyword === "anyOf" || keyword === "oneOf") {
        if (Array.isArray(value)) for (const [index, child] of value.entries()) visit(child, `${here}/${index}`, field);
      } else if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
        for (const [index, child] of value.entries()) visit(child, `${here}/${index}`, undefined);
      } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isSchemaObject(value)) {
        for (const [name, child] of Object.entries(value)) visit(child, `${here}/${pointerToken(name)}`, undefined);
      } else if (SCHEMA_KEYWORDS.has(keyword)) {
        visit(value, here, undefined);
      }
    }
  };
  visit(schema, "", "");
  return out;
}

function fragmentPointer(ref: string): string | undefined {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

/** Every property of every object schema in `schema`, in schema order. */
export function propertyNodes(schema: unknown): PropertyNode[] {
  const out: PropertyNode[] = [];
  for (const { node, pointer, field } of schemaNodes(schema)) {
    const properties = node["properties"];
    if (!isSchemaObject(properties)) continue;
    const required = new Set(Array.isArray(node["required"]) ? node["required"].filter((name) => typeof name === "string") : []);
    for (const [name, child] of Object.entries(properties)) {
      if (!isSchemaObject(child)) continue;
      out.push({
        node: child,
        name,
        pointer: `${pointer}${joinPointer("properties", name)}`,
        field: field === undefined ? undefined : `${field}/${pointerToken(name)}`,
        required: required.has(name),
        parent: node,
      });
    }
  }
  return out;
}
