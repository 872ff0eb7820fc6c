// Compiles templates/tool-module.ts into a fill-in form, once per run: ts-morph reads the
// template and drops its placeholder import, TypeScript transpiles it to JavaScript and to a
// declaration file, and the placeholder identifiers and runtime import paths are located by
// the parser (never by text search, so a name inside a string or comment is never touched).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type * as TsMorph from "ts-morph";
import { TEMPLATES_DIR } from "../paths.ts";
import { Code } from "../safe-emit.ts";

const TEMPLATE = path.join(TEMPLATES_DIR, "tool-module.ts");
const PLACEHOLDER_MODULE = "./tool-placeholders.ts";
/** The JSDoc the generator replaces with the tool's own description. */
export const DESCRIPTION_COMMENT = "/** TOOL_DESCRIPTION */";

type Piece = string | { readonly placeholder: string };

/** A template output split at its placeholders. */
export interface FillInForm {
  readonly pieces: readonly Piece[];
}

export interface CompiledToolTemplate {
  readonly js: FillInForm;
  readonly dts: FillInForm;
}

let compiled: CompiledToolTemplate | undefined;

/**
 * Uses a template compiled elsewhere (by the main thread, or read from the cache), so that
 * emitting does not load TypeScript (~0.5 s and ~100 MB per thread) just to compile it again.
 */
export function useToolTemplate(template: CompiledToolTemplate): void {
  compiled = template;
}

export function toolTemplate(): CompiledToolTemplate {
  if (compiled) return compiled;
  // Loaded here, not at the top, so that a thread given the compiled template never loads it.
  const { Project, ts } = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;
  const project = new Project({ useInMemoryFileSystem: true });
  const source = project.createSourceFile("tool-module.ts", readFileSync(TEMPLATE, "utf8"));
  source.getImportDeclarationOrThrow(PLACEHOLDER_MODULE).remove();
  const text = source.getFullText();
  const compilerOptions: TsMorph.ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    declaration: true,
    isolatedDeclarations: true,
    removeComments: false,
  };
  const js = ts.transpileModule(text, { compilerOptions, fileName: "tool-module.ts" }).outputText;
  const dts = ts.transpileDeclaration(text, { compilerOptions, fileName: "tool-module.ts" }).outputText;
  compiled = { js: split(ts, twoSpaceIndent(js)), dts: split(ts, dts) };
  return compiled;
}

// TypeScript prints with four-space indentation; generated code uses two, like the rest of the
// package. The template has no multi-line strings, so leading spaces are only indentation.
function twoSpaceIndent(text: string): string {
  return text.replace(/^(?: {4})+/gm, (indent) => " ".repeat(indent.length / 2));
}

// Placeholders are the template's ALL-CAPS identifiers, the runtime import specifiers (which
// move from `./runtime/x.ts` to `../runtime/x.js`) and the description comment.
function split(ts: typeof TsMorph.ts, output: string): FillInForm {
  const file = ts.createSourceFile("out.ts", output, ts.ScriptTarget.Latest, true);
  const cuts: { start: number; end: number; placeholder: string }[] = [];
  const visit = (node: TsMorph.ts.Node): void => {
    if (ts.isIdentifier(node) && /^TOOL_[A-Z_]+$/.test(node.text)) {
      cuts.push({ start: node.getStart(file), end: node.getEnd(), placeholder: node.text });
    } else if (ts.isStringLiteral(node) && ts.isImportDeclaration(node.parent) && node.text.startsWith("./runtime/")) {
      cuts.push({ start: node.getStart(file), end: node.getEnd(), placeholder: `IMPORT:${node.text}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const comment = output.indexOf(DESCRIPTION_COMMENT);
  if (comment >= 0) cuts.push({ start: comment, end: comment + DESCRIPTION_COMMENT.length, placeholder: "DESCRIPTION_COMMENT" });
  cuts.sort((a, b) => a.start - b.start);
  const pieces: Piece[] = [];
  let at = 0;
  for (const cut of cuts) {
    pieces.push(output.slice(at, cut.start), { placeholder: cut.placeholder });
    at = cut.end;
  }
  pieces.push(output.slice(at));
  return { pieces };
}

/** Fills a form: every placeholder must have a value, and every value is already safe code. */
export function fill(form: FillInForm, values: Readonly<Record<string, Code>>): string {
  return form.pieces
    .map((piece) => {
      if (typeof piece === "string") return piece;
      if (piece.placeholder.startsWith("IMPORT:")) {
        const specifier = piece.placeholder
          .slice("IMPORT:".length)
          .replace(/^\.\/runtime\//, "../runtime/")
          .replace(/\.ts$/, ".js");
        return JSON.stringify(specifier);
      }
      const value = values[piece.placeholder];
      if (!(value instanceof Code)) throw new Error(`tool template: no value for ${piece.placeholder}`);
      return value.text;
    })
    .join("");
}
