// The note a schema set that yields no tool gets, naming why: an empty generated package is never
// what its author meant, and used to pass with exit 0 and no word. Kept apart from the reader so
// that the CLI reads the prefix without loading the reader.
import type { SkippedTool } from "../ir.ts";
import { relativeToRoot } from "../load/load-document.ts";

/** The prefix of the note a set that yields no tool gets; the CLI prints that one as a warning. */
export const NO_TOOL = "the set yields no tool: ";

/** Why a set that read without errors yields no tool, so that an empty package never passes unremarked. */
export function noToolNote(root: string, entries: readonly { readonly file: string }[], skipped: readonly SkippedTool[]): string {
  if (skipped.length > 0) return `${NO_TOOL}every one of its ${skipped.length} operation${skipped.length === 1 ? " was" : "s were"} skipped (reasons below)`;
  const files = entries.map((entry) => relativeToRoot(root, entry.file));
  if (files.length === 0) return `${NO_TOOL}every file is referenced by another, so none is an entry; name the root document with \`entry\``;
  const shown = `${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`;
  return `${NO_TOOL}${shown} describe${files.length === 1 ? "s" : ""} no operation (\`paths\` is empty or missing)`;
}
