// The runtime every generated package carries once (never per tool): templates/runtime/**/*.ts
// (one folder per stage of a call, index.ts at the root) transpiled to JavaScript and declarations. The runtime is written so that each file's
// declarations can be produced on its own (explicit types on everything exported), which is
// what makes this a fast, per-file transpile rather than a whole-program build.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ts } from "ts-morph";
import { TEMPLATES_DIR } from "../paths.ts";
import { contentHash, header } from "./header.ts";

const RUNTIME_DIR = path.join(TEMPLATES_DIR, "runtime");

export interface EmittedFile {
  /** Path inside the generated package, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

let cache: readonly EmittedFile[] | undefined;

export function runtimeFiles(): readonly EmittedFile[] {
  if (cache) return cache;
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    declaration: true,
    isolatedDeclarations: true,
  };
  const files: EmittedFile[] = [];
  for (const name of runtimeSources()) {
    const source = readFileSync(path.join(RUNTIME_DIR, name), "utf8");
    const top = header(`toolguard runtime templates/runtime/${name}`, contentHash(source));
    const stem = name.slice(0, -".ts".length);
    const js = ts.transpileModule(source, { compilerOptions, fileName: name }).outputText;
    const dts = ts.transpileDeclaration(source, { compilerOptions, fileName: name });
    if (dts.diagnostics && dts.diagnostics.length > 0) {
      const first = dts.diagnostics[0];
      throw new Error(`templates/runtime/${name}: declarations cannot be emitted on their own: ${ts.flattenDiagnosticMessageText(first?.messageText ?? "", " ")}`);
    }
    files.push({ path: `runtime/${stem}.js`, content: top + js });
    files.push({ path: `runtime/${stem}.d.ts`, content: top + rewriteDeclarationImports(dts.outputText) });
  }
  cache = files;
  return files;
}

/** The runtime's sources, relative to templates/runtime with forward slashes, in a stable order. */
function runtimeSources(): string[] {
  return readdirSync(RUNTIME_DIR, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(path.sep).join("/"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort();
}

// Declaration emit keeps `.ts` specifiers; the package ships `.js` beside `.d.ts`.
function rewriteDeclarationImports(text: string): string {
  return text.replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+)\.ts\2/g, "$1$2$3.js$2");
}
