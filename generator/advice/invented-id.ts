// An identifier the model must produce (`customer_id`, `projectId`, `ids`) with no reference
// annotation: the model can only copy it from an earlier result or invent it, and an invented id
// either matches nothing or matches someone else's record (docs/references.md). A field with a
// closed set of values (`enum`, `const`) is a choice, not an identifier, and is left alone.
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type Advice, type AdvisedTool, adviceAt } from "./advice-item.ts";
import { propertyNodes } from "./schema-nodes.ts";

/** `id`, `customer_id`, `customer-id`, `ids`, `customer_uuid`, `guid`; and camelCase `customerId`, `customerIDs`, `orderUuid`. */
const CAMEL_ID = /[a-z0-9](Id|ID|Ids|IDs|Uuid|UUID|Guid|GUID)s?$/;
const SCALARS: ReadonlySet<string> = new Set(["string", "integer", "number"]);

export function isIdentifierName(name: string): boolean {
  return /(^|[_\-.])(ids?|uuids?|guids?)$/i.test(name) || CAMEL_ID.test(name);
}

export function inventedIdAdvice(tool: AdvisedTool): Advice[] {
  const out: Advice[] = [];
  for (const property of propertyNodes(tool.inputSchema)) {
    // An optional id (a filter, a parent to attach to) can be left out; a required one the model must produce.
    if (!property.required || !isIdentifierName(property.name) || !holdsIdentifier(property.node)) continue;
    if (property.field !== undefined && property.field in tool.references) continue;
    const inline = property.field !== undefined;
    out.push(
      adviceAt(
        tool,
        "invented-id",
        property.pointer,
        `${JSON.stringify(property.name)} asks the model for an identifier it can only copy or invent`,
        inline
          ? `ask for what the user can name (a name, an email) in a field annotated "x-toolguard-reference": {"kind": ..., "target": <this id>} (docs/references.md), or say in the id's description which earlier result it comes from`
          : `a reference cannot be annotated under a definition: move the field inline and annotate one the user can name with "x-toolguard-reference" (docs/references.md), or say in the id's description which earlier result it comes from`,
      ),
    );
  }
  return out;
}

/** A scalar the model writes freely (or a list of them), not a closed choice. */
function holdsIdentifier(schema: Schema): boolean {
  if ("enum" in schema || "const" in schema) return false;
  const types = typeList(schema["type"]);
  if (types.includes("array")) return isSchemaObject(schema["items"]) && holdsIdentifier(schema["items"]);
  if (types.length === 0) return !("properties" in schema) && !("items" in schema) && !("anyOf" in schema) && !("oneOf" in schema) && !("$ref" in schema);
  return types.some((type) => SCALARS.has(type));
}

function typeList(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string" && item !== "null") : [];
}
