// How `generate` prints advice: on stderr, a header counting it by kind, then grouped. An advice
// that many tools share (one path parameter `id` in 250 operations, one shared definition) is one
// fact about the API, printed once with the tools it concerns; the rest is grouped by tool, one
// line per kind with its places and one with the change. A set of hundreds of tools shows its
// first MAX_TOOLS_SHOWN tools and counts the rest (schemaAdvice returns them all, as data).
import { ADVICE_KINDS, type Advice, type AdviceKind } from "./advice-item.ts";

export const MAX_TOOLS_SHOWN = 10;
/** An advice at the same place in at least this many tools is printed once for all of them. */
export const SHARED_AT = 3;
const MAX_POINTERS_SHOWN = 3;
const MAX_NAMES_SHOWN = 3;

const SEVERAL: Readonly<Record<AdviceKind, string>> = {
  "invented-id": "identifiers the model can only copy or invent",
  "undescribed-enum": "enums of many values and no description",
  "required-default": "required fields with a default, which toolguard never fills in",
  "output-budget": "",
};

/** The lines for `advice`, each safe to print (see `terminalSafe`). */
export function adviceLines(advice: readonly Advice[], setName: string): string[] {
  return rawLines(advice, setName).map(terminalSafe);
}

/**
 * A line as a terminal may show it: property names, tool names and files come from schemas
 * anyone may have written (a vendor's document), so escape sequences, control characters, line
 * separators and bidirectional overrides are written as `\u{...}`, never sent raw (the same set
 * `printable` in report.ts escapes in ledger names).
 */
export function terminalSafe(line: string): string {
  return line.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
  );
}

function rawLines(advice: readonly Advice[], setName: string): string[] {
  if (advice.length === 0) return [];
  const tools = new Set(advice.map((item) => item.tool));
  const counts = ADVICE_KINDS.map((kind) => [kind, advice.filter((item) => item.kind === kind).length] as const)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");
  const lines = [
    `toolguard: advice for ${setName}: ${advice.length} for ${tools.size} tool${tools.size === 1 ? "" : "s"} (${counts}); not errors, silenced per tool with the set's advice.ignore (docs/advice.md)`,
  ];
  // Each change is said once: the same advice on the next tool only names its places.
  const said = new Set<string>();
  const changeOnce = (change: string, indent: string): void => {
    if (said.has(change)) return;
    said.add(change);
    lines.push(`${indent}change: ${change}`);
  };
  const byPlace = new Map<string, Advice[]>();
  for (const item of advice) {
    const key = `${item.kind} ${item.pointer}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), item]);
  }
  const shared = new Set<Advice>();
  for (const group of byPlace.values()) {
    if (group.length < SHARED_AT) continue;
    const first = group[0] as Advice;
    const names = group.map((item) => item.tool);
    const more = names.length > MAX_NAMES_SHOWN ? ` and ${names.length - MAX_NAMES_SHOWN} more` : "";
    lines.push(`  ${group.length} tools (${names.slice(0, MAX_NAMES_SHOWN).join(", ")}${more}), ${first.kind} at ${first.pointer || "/"}: ${first.finding}`);
    changeOnce(first.change, "      ");
    for (const item of group) shared.add(item);
  }
  const byTool = new Map<string, Advice[]>();
  for (const item of advice) if (!shared.has(item)) byTool.set(item.tool, [...(byTool.get(item.tool) ?? []), item]);
  for (const [tool, items] of [...byTool].slice(0, MAX_TOOLS_SHOWN)) {
    const first = items[0] as Advice;
    lines.push(`  ${tool} (${first.file}${first.toolPointer === "" ? "" : `#${first.toolPointer}`}):`);
    for (const kind of ADVICE_KINDS) {
      const ofKind = items.filter((item) => item.kind === kind);
      if (ofKind.length === 0) continue;
      const one = ofKind[0] as Advice;
      const places = ofKind.slice(0, MAX_POINTERS_SHOWN).map((item) => item.pointer || "/");
      const more = ofKind.length > MAX_POINTERS_SHOWN ? ` and ${ofKind.length - MAX_POINTERS_SHOWN} more` : "";
      lines.push(`    ${kind} at ${places.join(", ")}${more}: ${ofKind.length === 1 || SEVERAL[kind] === "" ? one.finding : SEVERAL[kind]}`);
      changeOnce(one.change, "      ");
    }
  }
  if (byTool.size > MAX_TOOLS_SHOWN) lines.push(`  ... and ${byTool.size - MAX_TOOLS_SHOWN} more tools with advice of their own`);
  return lines;
}
