// Arguments for OpenAPI operations in tests on real descriptions: the request-body examples the
// spec writes, and plausible values for required parameters.
import type { ToolDescription } from "../../generator/ir.ts";

/** The request-body examples of the tool's operation, as the spec writes them. */
export function requestExamples(document: unknown, tool: ToolDescription): unknown[] {
  if (!tool.http?.body) return [];
  const tokens = tool.source.pointer
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
  let operation: unknown = document;
  for (const token of tokens) operation = (operation as Record<string, unknown>)[token];
  const media = (
    operation as { requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> }> } }
  ).requestBody?.content?.[tool.http.body.contentType];
  if (media?.example !== undefined) return [media.example];
  return Object.values(media?.examples ?? {}).flatMap((example) => {
    if (example.$ref) {
      const name = example.$ref.split("/").pop() as string;
      const target = (document as { components: { examples: Record<string, { value?: unknown }> } }).components.examples[name];
      return target?.value === undefined ? [] : [target.value];
    }
    return example.value === undefined ? [] : [example.value];
  });
}

/** Plausible values for the tool's required parameters (path parameters, mostly). */
export function requiredParameterValues(tool: ToolDescription): Record<string, unknown> {
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
  const values: Record<string, unknown> = {};
  for (const name of (tool.inputSchema.required as string[] | undefined) ?? []) {
    if (name === "body") continue;
    values[name] = sampleValue(properties[name]!, tool.inputSchema.$defs as Record<string, Record<string, unknown>> | undefined);
  }
  return values;
}

function sampleValue(schema: Record<string, unknown>, defs: Record<string, Record<string, unknown>> | undefined): unknown {
  if (typeof schema.$ref === "string") return sampleValue(defs?.[schema.$ref.split("/").pop() as string] ?? {}, defs);
  if (Array.isArray(schema.examples)) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") return 1;
  if (schema.type === "boolean") return true;
  return "octocat";
}
