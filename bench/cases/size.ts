// Figure 5: bytes of generated code per GitHub tool (its .js and .d.ts), the validator modules
// tools share (tools/shared/, each written once), the package's bytes per tool, the gzip size of
// the whole package, and a check that the runtime's helpers live once in runtime/ and are never
// pasted into a tool's files. Prints one JSON line.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { FULL } from "../lib/fixtures.ts";
import { median } from "../lib/stats.ts";

const root = path.join(FULL, "generated");
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
  .sort();
const perTool = new Map<string, number>();
let total = 0;
let sharedBytes = 0;
let sharedModules = 0;
const chunks: Buffer[] = [];
for (const file of files) {
  const content = readFileSync(path.join(root, file));
  total += content.length;
  chunks.push(Buffer.from(`${file}\n`), content);
  if (file.startsWith("tools/shared/")) {
    sharedBytes += content.length;
    sharedModules++;
    continue;
  }
  const match = /^tools\/(.+?)\.(?:js|d\.ts)$/.exec(file);
  if (match) perTool.set(match[1] as string, (perTool.get(match[1] as string) ?? 0) + content.length);
}

// Every function the runtime's JavaScript defines at top level must not be redefined in a tool.
const helpers = new Set<string>();
for (const file of files.filter((name) => name.startsWith("runtime/") && name.endsWith(".js"))) {
  for (const match of readFileSync(path.join(root, file), "utf8").matchAll(/^(?:export )?(?:async )?function\*? ?([A-Za-z_$][\w$]*)/gm))
    helpers.add(match[1] as string);
}
const duplicated: string[] = [];
for (const file of files.filter((name) => name.startsWith("tools/") && name.endsWith(".js"))) {
  const text = readFileSync(path.join(root, file), "utf8");
  for (const match of text.matchAll(/function\*? ?([A-Za-z_$][\w$]*)\s*\(/g)) if (helpers.has(match[1] as string)) duplicated.push(`${file}: ${match[1]}`);
  // A validator that still loads ajv's helpers itself would carry its own copy of them. (The
  // validator is in the tool's module, beside descriptions that may mention require( in their
  // comments or, quote escaped, in their strings: only a call with a bare quote is code.)
  const code = text.replace(/^\s*(?:\/\/|\/\*\*|\*).*$/gm, "");
  if (/\brequire\("/.test(code)) duplicated.push(`${file}: require(`);
}
if (duplicated.length > 0) throw new Error(`runtime helpers duplicated in tool files:\n${duplicated.slice(0, 10).join("\n")}`);
const sizes = [...perTool.values()];
const runtimeBytes = files.filter((name) => name.startsWith("runtime/")).reduce((sum, name) => sum + readFileSync(path.join(root, name)).length, 0);
console.log(
  JSON.stringify({
    tools: perTool.size,
    medianToolBytes: median(sizes),
    maxToolBytes: Math.max(...sizes),
    maxTool: [...perTool].find(([, size]) => size === Math.max(...sizes))?.[0],
    runtimeBytes,
    sharedModules,
    sharedBytes,
    packageBytes: total,
    packageBytesPerTool: Math.round(total / perTool.size),
    packageGzipBytes: gzipSync(Buffer.concat(chunks), { level: 9 }).length,
    runtimeHelpers: helpers.size,
    helpersDuplicated: 0,
  }),
);
