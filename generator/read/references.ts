// Reference fields (rule 8): a property annotated with
//   "x-toolguard-reference": { "kind": "customer", "target": "customer_id" }
// is filled by the model with something it can know (a name, an email); a resolver turns it
// into the identifier written to `target`. The annotation is lifted out of the schema into the
// tool's reference table, keyed by the field's JSON Pointer (`*` for any array index).
import { InputError, type ErrorLocation } from "../errors.ts";
import type { ReferenceField } from "../../templates/runtime/contract/tool-spec.ts";
import { pointerToken, pointerTokens } from "../json-pointer.ts";

export const REFERENCE_KEYWORD = "x-toolguard-reference";
const KIND = /^[a-z][a-z0-9_]{0,39}$/;

export interface ExtractedReferences {
  readonly schema: Record<string, unknown>;
  readonly references: Readonly<Record<string, ReferenceField>>;
}

export function extractReferences(schema: Record<string, unknown>, location: ErrorLocation): ExtractedReferences {
  const references: Record<string, ReferenceField> = {};

  const visit = (node: unknown, schemaAt: string, instanceAt: string | undefined): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => visit(item, `${schemaAt}/${index}`, undefined));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const childAt = `${schemaAt}/${pointerToken(key)}`;
      if (key === REFERENCE_KEYWORD) {
        if (instanceAt === undefined) {
          throw new InputError(
            { file: location.file, pointer: childAt },
            `${REFERENCE_KEYWORD} must sit on a property reached through "properties" and "items" only`,
            "move the annotation onto the property schema itself (not under $ref, anyOf or $defs)",
          );
        }
        references[instanceAt] = readAnnotation(child, { file: location.file, pointer: childAt });
      } else if (key === "properties" && child !== null && typeof child === "object" && instanceAt !== undefined) {
        const props: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(child)) {
          props[name] = visit(sub, `${childAt}/${pointerToken(name)}`, `${instanceAt}/${pointerToken(name)}`);
        }
        out[key] = props;
      } else if (key === "items" && instanceAt !== undefined && !Array.isArray(child)) {
        out[key] = visit(child, childAt, `${instanceAt}/*`);
      } else {
        out[key] = visit(child, childAt, undefined);
      }
    }
    if (REFERENCE_KEYWORD in out) delete out[REFERENCE_KEYWORD];
    return out;
  };

  const result = visit(schema, location.pointer, "") as Record<string, unknown>;
  for (const [path, field] of Object.entries(references)) assertTargetFree(result, path, field, location);
  return { schema: result, references };
}

function readAnnotation(value: unknown, at: ErrorLocation): ReferenceField {
  const fix = `write it as {"kind": "customer", "target": "customer_id"}: kind names the resolver, target the property that receives the identifier`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new InputError(at, `${REFERENCE_KEYWORD} must be an object`, fix);
  const { kind, target } = value as Record<string, unknown>;
  if (typeof kind !== "string" || !KIND.test(kind)) throw new InputError(at, `reference kind ${JSON.stringify(kind)} must be a lower-case identifier`, fix);
  if (typeof target !== "string" || target === "") throw new InputError(at, "reference target must name the property that receives the identifier", fix);
  return { kind, target };
}

// The target is written by the resolver, so the model must not be able to send it itself.
function assertTargetFree(schema: Record<string, unknown>, path: string, field: ReferenceField, location: ErrorLocation): void {
  let node: unknown = schema;
  for (const token of pointerTokens(path).slice(0, -1)) {
    node = token === "*" ? (node as Record<string, unknown>).items : ((node as Record<string, unknown>).properties as Record<string, unknown>)[token];
  }
  const props = (node as Record<string, unknown>).properties as Record<string, unknown> | undefined;
  if (props && Object.hasOwn(props, field.target)) {
    throw new InputError(
      location,
      `reference target "${field.target}" of ${path} is also a property the model could send`,
      "remove that property from the schema: the resolver fills it",
    );
  }
}
