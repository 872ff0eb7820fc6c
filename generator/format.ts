// Formats what people read in review, in memory, with fixed options: the output must not
// depend on a .prettierrc that happens to sit above the output folder. Prettier is loaded on
// first use: most runs lay out all they write themselves (emit/layout/index-layout.ts).
import type * as Prettier from "prettier";

let prettier: Promise<typeof Prettier> | undefined;

function format(text: string, options: Prettier.Options): Promise<string> {
  prettier ??= import("prettier");
  return prettier.then(({ format }) => format(text, options));
}

const OPTIONS = { printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

export function formatJs(text: string): Promise<string> {
  return format(text, { ...OPTIONS, parser: "babel" });
}

/**
 * Formats the declarations toolguard writes itself (the index). babel-ts prints them exactly as
 * the typescript parser does, in a third of the time: it spares loading prettier's copy of
 * TypeScript (~1 s together on GitHub's 1,221-tool index; test/generator/format.test.ts).
 */
export function formatTs(text: string): Promise<string> {
  return format(text, { ...OPTIONS, parser: "babel-ts" });
}

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
