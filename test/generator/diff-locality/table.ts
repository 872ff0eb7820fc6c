// Prints docs/diff.md's diff-locality table: `npx node test/generator/diff-locality/table.ts`.
import { EDITS, runBattery } from "./battery.ts";
import { localityTools } from "./tools.ts";

const tools = await localityTools();
const rows: string[][] = EDITS.map((edit) => [edit.name]);
for (const tool of tools) {
  const results = await runBattery(tool);
  for (const [index, result] of results.entries()) rows[index]?.push(result ? `${result.changed} (${result.renamedOnly})` : "n/a");
}
console.log(`| edit | ${tools.map((tool) => tool.name).join(" | ")} |`);
console.log(`|---|${tools.map(() => "---:").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
