// The type the implementation receives when a tool has reference fields: the model's
// arguments with each reference field replaced by the identifier its resolver found
// (`customer_ref: string` becomes `customer_id: string`), nested through objects and arrays.
import type { ToolDescription } from "../ir.ts";
import { Code, ident, literal } from "../safe-emit.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { typeBaseName } from "./names.ts";
import { pointerTokens } from "../json-pointer.ts";

export function resolvedArgsTypeName(tool: Pick<ToolDescription, "name">): string {
  return `${typeBaseName(tool.name)}ResolvedArgs`;
}

/** `export type XResolvedArgs = …;`, for a tool with references. */
export function resolvedArgsDeclaration(tool: ToolDescription, argsType: string): string {
  const name = ident(resolvedArgsTypeName(tool)).text;
  return `\n/** What the implementation receives: the arguments with each reference resolved to its identifier. */\nexport type ${name} = ${resolvedArgsType(tool, argsType).text};\n`;
}

function resolvedArgsType(tool: ToolDescription, argsType: string): Code {
  let type = ident(argsType).text;
  for (const [path, field] of Object.entries(tool.references).sort(([a], [b]) => (a < b ? -1 : 1))) {
    type = replaceAt(type, pointerTokens(path), field.target, tool.inputSchema as Schema);
  }
  return new Code(type);
}

function replaceAt(type: string, tokens: readonly string[], target: string, schema: Schema | undefined): string {
  const [head, ...rest] = tokens;
  if (head === undefined) return type;
  const required = Array.isArray(schema?.required) && schema.required.includes(head);
  const optional = required ? "" : "?";
  const key = literal(head).text;
  if (rest.length === 0) {
    return `Omit<${type}, ${key}> & { ${literal(target).text}${optional}: string }`;
  }
  const child = schema && isSchemaObject(schema.properties) ? (schema.properties as Record<string, unknown>)[head] : undefined;
  const childSchema = isSchemaObject(child) ? child : undefined;
  const inner = `NonNullable<${type}[${key}]>`;
  if (rest[0] === "*") {
    const items = childSchema && isSchemaObject(childSchema.items) ? childSchema.items : undefined;
    return `Omit<${type}, ${key}> & { ${key}${optional}: Array<${replaceAt(`${inner}[number]`, rest.slice(1), target, items)}> }`;
  }
  return `Omit<${type}, ${key}> & { ${key}${optional}: ${replaceAt(inner, rest, target, childSchema)} }`;
}
