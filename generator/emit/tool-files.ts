// Every file one tool contributes to its package: the client module (its standalone validator
// included, less what other tools may share), its declarations, and the shared validator modules
// it imports. Each starts with the generated header naming the tool's source.
import type { ToolDescription } from "../ir.ts";
import { contentHash, header } from "./header.ts";
import { lintSchema } from "./lint-schema.ts";
import { printDeclarations } from "./print-declarations.ts";
import { fileStem } from "./names.ts";
import type { EmittedFile } from "./runtime.ts";
import { emitToolModule } from "./tool-module.ts";
import { emitArgumentTypes } from "./types.ts";
import { compileValidator } from "./validator.ts";
import { lintAjv } from "../ajv/instances.ts";
import { splitSharedFunctions } from "../ajv/shared-functions.ts";
import { sharedModuleFiles } from "./shared-modules.ts";

export async function emitTool(tool: ToolDescription): Promise<EmittedFile[]> {
  lintSchema(tool, lintAjv(tool.dialect));
  const compiled = compileValidator(tool);
  // What other tools may share (a definition's checks) goes to modules of its own.
  const split = splitSharedFunctions(compiled.code, compiled.entry, compiled.imports, compiled.blanked);
  const validator = { imports: split.imports, code: split.code, entry: compiled.entry, declared: split.declared };
  const module = emitToolModule(tool, await emitArgumentTypes(tool), validator);
  const top = header(tool.source.pointer ? `${tool.source.file}#${tool.source.pointer}` : tool.source.file, toolHash(tool));
  const stem = `tools/${fileStem(tool.name)}`;
  // The module's code comes from the template, already formatted, and its data is printed as
  // indented JSON; the declarations, written by json-schema-to-typescript without indentation,
  // go through TypeScript's printer. (Prettier on every module was most of generation time.)
  const js = module.js;
  const dts = printDeclarations(module.dts);
  return [{ path: `${stem}.js`, content: top + js }, { path: `${stem}.d.ts`, content: top + dts }, ...sharedModuleFiles(split.shared)];
}

/** A hash of everything the tool's files are generated from. */
export function toolHash(tool: ToolDescription): string {
  const { source: _source, ...content } = tool;
  return contentHash(JSON.stringify(content));
}
