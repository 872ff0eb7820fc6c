// A keyword no JSON Schema vocabulary defines is, in 2020-12, an annotation: it asserts nothing.
// Published MCP servers carry such notes (Codacy's `"note": "_other_ can be used to ..."` beside
// an enum), and refusing them refused the server's whole tool list for one remark. Such a keyword
// is left out of a tool file's schema with a warning naming where it was. What may be a misspelt
// assertion is still refused at emit (lint-schema.ts): a keyword close to a known one (`maxLenght`,
// `min_items`, `Required`) whose value that known keyword would accept (`maxLength: 3`); `note:
// "text"` is close to `not` but a string is no schema, so it is a note. `--strict` refuses every
// unknown keyword, as before. OpenAPI documents are read by their own translation
// (docs/openapi.md), which drops unknown keywords the same way.
import { knownKeywords } from "../ajv/private-state.ts";
import { lintAjv } from "../ajv/instances.ts";
import type { ToolDescription } from "../ir.ts";
import { walkSchemas } from "../schema-walk.ts";
import { editDistance } from "../../templates/runtime/explain/spelling.ts";

/** Keywords lint-schema.ts refuses for what they do, not for being unknown. */
const REFUSED_FOR_WHAT_THEY_DO = new Set(["$data", "tsType", "tsEnumNames", "tsExtends", "tsTypeName", "__proto__"]);

/** How far a keyword may be from a known one and still be taken for its misspelling. */
const MAX_EDITS = 2;

/** The tool with its unknown annotation keywords left out, one warning each; unchanged under `strict`. */
export function leaveOutUnknownKeywords(tool: ToolDescription, strict: boolean): ToolDescription {
  if (strict || tool.http !== undefined) return tool;
  const ajv = lintAjv(tool.dialect);
  const known = knownKeywords(ajv);
  const found: { node: Record<string, unknown>; keyword: string; location: string }[] = [];
  const schema = structuredClone(tool.inputSchema);
  walkSchemas(schema, (node, location) => {
    for (const keyword of Object.keys(node)) {
      if (Object.hasOwn(known, keyword) || REFUSED_FOR_WHAT_THEY_DO.has(keyword)) continue;
      if (misspelt(keyword, node[keyword], known, ajv)) continue;
      found.push({ node, keyword, location });
    }
  });
  if (found.length === 0) return tool;
  for (const { node, keyword } of found) delete node[keyword];
  const warnings = found.map(
    ({ keyword, location }) =>
      `unknown keyword ${JSON.stringify(keyword)} at input schema ${location} left out: JSON Schema treats it as an annotation; if it was meant as an assertion, correct its spelling (--strict refuses it)`,
  );
  return { ...tool, inputSchema: schema, warnings: [...(tool.warnings ?? []), ...warnings] };
}

/** Whether `keyword` may be a known keyword misspelt: close to one whose meta-schema accepts the value. */
function misspelt(keyword: string, value: unknown, known: Readonly<Record<string, unknown>>, ajv: ReturnType<typeof lintAjv>): boolean {
  const plain = (text: string) => text.toLowerCase().replace(/[_-]/g, "");
  return Object.keys(known).some((candidate) => {
    const close = plain(candidate) === plain(keyword) || editDistance(candidate.toLowerCase(), keyword.toLowerCase()) <= MAX_EDITS;
    if (!close || candidate.startsWith("$") !== keyword.startsWith("$")) return false;
    try {
      return ajv.validateSchema({ [candidate]: value }) === true;
    } catch {
      return false;
    }
  });
}
