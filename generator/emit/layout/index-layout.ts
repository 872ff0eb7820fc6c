// Lays out the package index (package-files.ts) exactly as prettier formats it with format.ts's
// options, without loading prettier (~0.8 s of CPU on GitHub's 1,221-tool index, the last use
// of prettier on an empty cache). The index has a fixed shape, so prettier's choices come down
// to a few rules: a brace list stays on one line when the statement fits in 100 columns (or
// holds one name), else takes one name per line with a trailing comma; an object key is
// quoted only when it is not an identifier; a property too long for its line breaks after the
// colon unless its key is shorter than five columns; type members never break. A tool name
// starting with a digit (which prettier may print as a number), or no tool at all, returns
// `undefined`, and the caller asks prettier. test/generator/index-layout.test.ts compares the two.

const WIDTH = 100;

/** What the index says of one tool, each part already safe code (package-files.ts). */
export interface IndexEntry {
  /** The tool's name, as a string literal. */
  readonly key: string;
  /** Its export name. */
  readonly name: string;
  /** Its exported type names. */
  readonly types: readonly string[];
  /** Its module specifier, as a string literal. */
  readonly from: string;
}

/** The module the index takes every tool from: data and loaders, no tool module (catalog.ts). */
export const CATALOG = '"./catalog.js"';

export const TOOLS_COMMENT = "/** Every tool of this package, keyed by the name the model calls it by. */";
export const DEFINITIONS_COMMENT =
  "/** What each provider needs to show the tools to a model: name, description, input schema (read on first use: catalog.json). */";

export function layOutIndex(entries: readonly IndexEntry[]): { readonly js: string; readonly dts: string } | undefined {
  if (entries.length === 0) return undefined;
  const keys: string[] = [];
  for (const entry of entries) {
    const key = propertyKey(entry.key);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  const names = entries.map((entry) => entry.name);
  const imports = entries.map((entry) => `import { ${entry.name} } from ${entry.from};`);
  const js = [
    braceList("import ", names, ` from ${CATALOG};`),
    `export * from "./runtime/index.js";`,
    braceList("export ", names, ";"),
    "",
    TOOLS_COMMENT,
    toolsObject(keys, names),
    "",
    DEFINITIONS_COMMENT,
    "export const toolDefinitions = Object.freeze(",
    "  Object.values(tools).map((tool) => ({",
    "    name: tool.name,",
    "    get description() {",
    "      return tool.description;",
    "    },",
    "    get inputSchema() {",
    "      return tool.inputSchema;",
    "    },",
    "  })),",
    ");",
    "",
  ].join("\n");
  const dts = [
    `import type { ToolDescriptor } from "./runtime/providers/providers.js";`,
    ...imports,
    `export * from "./runtime/index.js";`,
    braceList("export ", names, ";"),
    ...entries.map((entry) => braceList("export type ", entry.types, ` from ${entry.from};`)),
    "",
    TOOLS_COMMENT,
    toolsType(keys, names),
    "",
    DEFINITIONS_COMMENT,
    "export declare const toolDefinitions: readonly ToolDescriptor[];",
    "",
  ].join("\n");
  return { js, dts };
}

/** `{ a, b }` between `prefix` and `suffix`, broken one name per line when it does not fit. */
function braceList(prefix: string, items: readonly string[], suffix: string): string {
  const line = `${prefix}{ ${items.join(", ")} }${suffix}`;
  if (items.length === 1 || line.length <= WIDTH) return line;
  return [`${prefix}{`, ...items.map((item) => `  ${item},`), `}${suffix}`].join("\n");
}

function toolsObject(keys: readonly string[], names: readonly string[]): string {
  const members = keys.map((key, index) => `${key}: ${names[index]}`);
  const line = `export const tools = Object.freeze({ ${members.join(", ")} });`;
  if (line.length <= WIDTH) return line;
  const properties = keys.map((key, index) => {
    const property = `  ${key}: ${names[index]},`;
    return property.length > WIDTH && key.length >= 5 ? `  ${key}:\n    ${names[index]},` : property;
  });
  return ["export const tools = Object.freeze({", ...properties, "});"].join("\n");
}

function toolsType(keys: readonly string[], names: readonly string[]): string {
  const members = keys.map((key, index) => `readonly ${key}: typeof ${names[index]}`);
  const line = `export declare const tools: { ${members.join("; ")} };`;
  if (line.length <= WIDTH) return line;
  return ["export declare const tools: {", ...members.map((member) => `  ${member};`), "};"].join("\n");
}

/** A tool name's literal as prettier prints it as a key: bare when it is an identifier. */
function propertyKey(literal: string): string | undefined {
  const name = JSON.parse(literal) as string;
  if (!/^[A-Za-z_$][\w$-]*$/.test(name) || JSON.stringify(name) !== literal) return undefined;
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal;
}
