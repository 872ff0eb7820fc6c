// Formats what people read in review, in memory, with fixed options: the output must not
// depend on a .prettierrc that happens to sit above the output folder.
import { format } from "prettier";

const OPTIONS = { printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

export function formatJs(text: string): Promise<string> {
  return format(text, { ...OPTIONS, parser: "babel" });
}

export function formatTs(text: string): Promise<string> {
  return format(text, { ...OPTIONS, parser: "typescript" });
}

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
