// Prints a tool's declarations (json-schema-to-typescript writes them without indentation) as
// TypeScript's own printer does: one member per line, semicolons, JSDoc kept, two-space
// indentation. layout/declaration-layout.ts does it for the subset of TypeScript that the generator
// writes, so that emitting a tool never loads TypeScript (~0.35 s per thread, and its printer
// was a fifth of emitting); anything else still goes through TypeScript's printer.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";
import { layOutDeclarations } from "./layout/declaration-layout.ts";

let printer: { ts: typeof TsMorph.ts; printer: TsMorph.ts.Printer } | undefined;

export function printDeclarations(text: string): string {
  return halveIndentation(layOutDeclarations(text) ?? printWithTypeScript(text));
}

/** TypeScript's printer itself, for text outside layout/declaration-layout.ts's subset (and for tests). */
export function printWithTypeScript(text: string): string {
  // Loaded on first use: most runs never need it.
  printer ??= (() => {
    const { ts } = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;
    return { ts, printer: ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }) };
  })();
  const { ts } = printer;
  const file = ts.createSourceFile("tool.d.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return printer.printer.printFile(file);
}

// The printer indents by four spaces; generated code uses two. Declarations hold no multi-line
// strings, so leading spaces are only indentation.
function halveIndentation(text: string): string {
  return text.replace(/^(?: {4})+/gm, (indent) => " ".repeat(indent.length / 2));
}
