// Writes the page beside its target and renames it into place: a failed write leaves no half page.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { Analysis } from "./analysis.ts";
import { renderHtml } from "./html-page.ts";

export function writeHtmlReport(file: string, analysis: Analysis): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, renderHtml(analysis));
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
