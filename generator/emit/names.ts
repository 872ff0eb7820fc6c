// Names derived from a tool's name: the camelCase export, the PascalCase types and the file
// stem. Derivation is deterministic; collisions and reserved words are resolved or reported.
import { isSafeIdentifier } from "../safe-emit.ts";

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Names a tool's module declares beside its export: the template's imports and tables, the
 * runtime helpers its validator imports, and ajv's numbered top-level names (`schema31`,
 * `validate20`, `func0`, `pattern2`, `formats4`... as ajv prints them; stable-names.ts renames them
 * `validate_arguments`, `func_hasOwnProperty`, which hold `_` and so are never an export's
 * camel-case name), and the catalog's `lazyTool`, `catalogData` and `dataAt`. An export with one
 * of them would not load.
 */
const MODULE_NAMES = new Set([
  "tools",
  "defineTool",
  "inputSchema",
  "coercions",
  "hints",
  "references",
  "rewrites",
  "putOwn",
  "hazardWalk",
  "shortestNumber",
  "anyValue",
  "http",
  "writeOnly",
  "validate",
  "formats",
  "linearRegExp",
  "ucs2length",
  "equal",
  "lazyTool",
  "catalogData",
  "dataAt",
]);
const AJV_SCOPE_NAME = /^(?:schema|validate|func|pattern|formats|wrapper|root|keyword|parse|serialize|Error)\d+$/;

/** `create_invoice` -> `createInvoice`; a reserved word or a leading digit gets a suffix/prefix. */
export function exportName(toolName: string): string {
  const parts = words(toolName);
  let name = parts.map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : capitalise(word))).join("");
  if (name === "") name = "tool";
  if (/^[0-9]/.test(name)) name = `tool${capitalise(name)}`;
  if (!isSafeIdentifier(name) || MODULE_NAMES.has(name) || AJV_SCOPE_NAME.test(name)) name = `${name}Tool`;
  return name;
}

/**
 * `create_invoice` -> `CreateInvoice` (types append `Args`, `ResolvedArgs`). Letters after
 * digits are upper-cased because json-schema-to-typescript does so to the name it is given:
 * the name must already be in its normal form, or the declaration and the references differ.
 */
export function typeBaseName(toolName: string): string {
  return capitalise(exportName(toolName)).replace(/\d+[a-zA-Z]/g, (run) => run.toUpperCase());
}

/**
 * The names a tool's name gives the generated package, each keyed by its kind: two tools sharing
 * any of them would shadow each other (`createComment` and `CreateComment` are one file, one
 * export). `a1b` and `a1B` export different functions but the same `A1BArgs` type.
 */
export function emittedNames(toolName: string): readonly (readonly [kind: string, key: string])[] {
  return [
    ["name", toolName],
    ["export name", `export:${exportName(toolName)}`],
    ["file name", `file:${fileStem(toolName)}`],
    ["type name", `type:${typeBaseName(toolName)}`],
  ];
}

/** Names Windows reserves for devices in every folder, whatever the extension (`con.js`, `nul.d.ts`). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/;

/** `create_invoice` -> `create-invoice`: the stem of the tool's files; `con` -> `con-tool`. */
export function fileStem(toolName: string): string {
  const stem =
    words(toolName)
      .map((word) => word.toLowerCase())
      .join("-") || "tool";
  return WINDOWS_DEVICE.test(stem) ? `${stem}-tool` : stem;
}
