// The lines the generation summary prints about what the readers skipped or left out. Many
// operations skipped for one cause (a vendor's document using one unsupported construct
// throughout) get one line per cause before the list, so the cause is read first.
import type { SkippedTool, ToolDescription } from "./ir.ts";

/** A cause shared by at least this many skips gets its own summary line. */
const GROUP_AT = 3;

export function skipLines(skipped: readonly SkippedTool[]): string[] {
  if (skipped.length === 0) return [];
  const lines = [`skipped ${plural(skipped.length, "operation")} (--strict makes this an error):`];
  const byCause = new Map<string, number>();
  for (const skip of skipped) {
    const cause = skip.reason.replace(/ \(at #.*\)$/, "");
    byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
  }
  const shared = [...byCause].filter(([, count]) => count >= GROUP_AT).sort((a, b) => b[1] - a[1]);
  for (const [cause, count] of shared) lines.push(`  ${count} for one cause: ${cause}`);
  for (const skip of skipped) lines.push(`  ${skip.name} (${skip.source.file}#${skip.source.pointer}): ${skip.reason}`);
  return lines;
}

/** Each reader warning once, with how many tools it concerns. */
export function warningLines(tools: readonly ToolDescription[]): string[] {
  const users = new Map<string, { file: string; tools: string[] }>();
  for (const tool of tools) {
    for (const warning of tool.warnings ?? []) {
      const key = `${tool.source.file}\u0000${warning}`;
      const entry = users.get(key) ?? { file: tool.source.file, tools: [] };
      entry.tools.push(tool.name);
      users.set(key, entry);
    }
  }
  if (users.size === 0) return [];
  const lines = [`${plural(users.size, "warning")}:`];
  for (const [key, { file, tools: names }] of users) {
    const warning = key.slice(key.indexOf("\u0000") + 1);
    const used = names.length === 1 ? `tool ${names[0]}` : `${names.length} tools: ${names.slice(0, 3).join(", ")}${names.length > 3 ? ", ..." : ""}`;
    lines.push(`  ${file}: ${warning} (${used})`);
  }
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
