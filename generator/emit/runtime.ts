// The runtime every generated package carries once (never per tool): templates/runtime/**/*.ts
// (one folder per stage of a call, index.ts at the root) transpiled to JavaScript and declarations. The runtime is written so that each file's
// declarations can be produced on its own (explicit types on everything exported), which is
// what makes this a fast, per-file transpile rather than a whole-program build.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ts } from "ts-morph";
import { TEMPLATES_DIR } from "../paths.ts";
import { contentHash, header } from "./header.ts";

export interface EmittedFile {
  /** Path inside the generated package, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

let cache: readonly EmittedFile[] | undefined;

export function runtimeFiles(): readonly EmittedFile[] {
  cache ??= transpileTemplates("runtime");
  return cache;
}

/**
 * Every TypeScript file under `templates/<folder>` as JavaScript and declarations, at the same
 * path in the package (`runtime/...`, `extras/<name>/...`), so relative imports between the
 * runtime and the extras hold in both places.
 */
export function transpileTemplates(folder: string): EmittedFile[] {
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    declaration: true,
    isolatedDeclarations: true,
  };
  const dir = path.join(TEMPLATES_DIR, folder);
  const files: EmittedFile[] = [];
  for (const name of templateSources(dir)) {
    const source = readFileSync(path.join(dir, name), "utf8");
    const top = header(`toolguard ${folder === "runtime" ? "runtime" : "extra"} templates/${folder}/${name}`, contentHash(source));
    const stem = name.slice(0, -".ts".length);
    const js = ts.transpileModule(source, { compilerOptions, fileName: name }).outputText;
    const dts = ts.transpileDeclaration(source, { compilerOptions, fileName: name });
    if (dts.diagnostics && dts.diagnostics.length > 0) {
      const first = dts.diagnostics[0];
      throw new Error(
        `templates/${folder}/${name}: declarations cannot be emitted on their own: ${ts.flattenDiagnosticMessageText(first?.messageText ?? "", " ")}`,
      );
    }
    files.push({ path: `${folder}/${stem}.js`, content: top + js });
    files.push({ path: `${folder}/${stem}.d.ts`, content: top + rewriteDeclarationImports(dts.outputText) });
  }
  return files;
}

/** The sources under `dir`, relative to it with forward slashes, in a stable order. */
function templateSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(path.sep).join("/"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort();
}

// Declaration emit keeps `.ts` specifiers; the package ships `.js` beside `.d.ts`.
function rewriteDeclarationImports(text: string): string {
  return text.replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+)\.ts\2/g, "$1$2$3.js$2");
}
