// The client module of one tool (`tools/<stem>.js` and `.d.ts`), filled in from the compiled
// template: the schema the model sees, the coercion and hint tables, references, and the
// `defineTool` call that binds them to the standalone validator.
import type { ToolDescription } from "../ir.ts";
import { code, dataLiteral, ident, join, jsdoc, literal } from "../safe-emit.ts";
import { buildCoercionTable } from "./coercion-table.ts";
import { buildHintTable } from "./error-hints.ts";
import { exportName, fileStem } from "./names.ts";
import { fill, toolTemplate } from "./tool-template.ts";
import { argsTypeName } from "./types.ts";
import { resolvedArgsDeclaration, resolvedArgsTypeName } from "./resolved-args.ts";

export interface ToolModule {
  readonly js: string;
  readonly dts: string;
}

export function emitToolModule(tool: ToolDescription, argumentTypes: string): ToolModule {
  const template = toolTemplate();
  const exported = ident(exportName(tool.name));
  const args = argsTypeName(tool);
  const kinds = [...new Set(Object.values(tool.references).map((field) => field.kind))].sort();
  const description = jsdoc(tool.description || tool.name);
  const js = fill(template.js, {
    TOOL_EXPORT: exported,
    TOOL_NAME: literal(tool.name),
    TOOL_DESCRIPTION: literal(tool.description),
    TOOL_INPUT_SCHEMA: dataLiteral(tool.inputSchema),
    TOOL_COERCIONS: dataLiteral(buildCoercionTable(tool)),
    TOOL_HINTS: dataLiteral(buildHintTable(tool)),
    TOOL_REFERENCES: dataLiteral(tool.references),
    TOOL_HTTP: tool.http ? dataLiteral(tool.http) : code`undefined`,
    TOOL_VALIDATOR: ident("validate"),
    DESCRIPTION_COMMENT: description,
  });
  const dts = fill(template.dts, {
    TOOL_EXPORT: exported,
    TOOL_ARGS: ident(args),
    TOOL_RESOLVED_ARGS: ident(kinds.length > 0 ? resolvedArgsTypeName(tool) : args),
    TOOL_REFERENCE_KINDS: kinds.length > 0 ? join(kinds.map((kind) => literal(kind)), " | ") : code`never`,
    DESCRIPTION_COMMENT: description,
  });
  return {
    js: `import { validate } from ${literal(`./${fileStem(tool.name)}.validator.js`)};\n${js}`,
    dts: `${dts}\n${argumentTypes}${kinds.length > 0 ? resolvedArgsDeclaration(tool, args) : ""}`,
  };
}
