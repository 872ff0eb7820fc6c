// The client module of one tool (`tools/<stem>.js` and `.d.ts`), filled in from the compiled
// template: the schema the model sees, the coercion and hint tables, references, and the
// `defineTool` call that binds them to the standalone validator, which follows in the same
// module. (One module per tool, not two: at start-up Node's loader costs about as much per
// module as V8 spends compiling a tool's code.)
import type { ToolDescription } from "../ir.ts";
import { code, dataLiteral, ident, join, jsdoc, literal } from "../safe-emit.ts";
import { buildCoercionTable } from "./coercion-table.ts";
import { buildHintTable } from "./error-hints.ts";
import { writeOnlyPointers } from "../../templates/runtime/ledger/redact.ts";
import { exportName } from "./names.ts";
import { fill, toolTemplate } from "./tool-template.ts";
import type { CompiledValidator } from "./validator.ts";
import { argsTypeName } from "./types.ts";
import { resolvedArgsDeclaration, resolvedArgsTypeName } from "./resolved-args.ts";
import { referenceRewrites, REWRITE_IMPORT } from "./reference-rewrites.ts";
import { HAZARD_WALK_IMPORT, hazardWalk } from "./hazard-walk.ts";
import { PATH_PROBE_IMPORT } from "./path-probe.ts";
import { pathArgumentNames } from "../../templates/runtime/call/path-arguments.ts";

export interface ToolModule {
  readonly js: string;
  readonly dts: string;
}

export function emitToolModule(tool: ToolDescription, argumentTypes: string, validator: CompiledValidator): ToolModule {
  const template = toolTemplate();
  const exported = ident(exportName(tool.name));
  const args = argsTypeName(tool);
  const kinds = [...new Set(Object.values(tool.references).map((field) => field.kind))].sort();
  const description = jsdoc(tool.description || tool.name);
  const rewrites = referenceRewrites(tool);
  const coercions = buildCoercionTable(tool);
  const walk = hazardWalk(tool, coercions);
  const imports = [
    ...validator.imports,
    ...(rewrites ? [REWRITE_IMPORT] : []),
    ...(walk ? [HAZARD_WALK_IMPORT] : []),
    ...(walk && pathArgumentNames(tool.http).length > 0 ? [PATH_PROBE_IMPORT] : []),
  ];
  const js = fill(template.js, {
    TOOL_EXPORT: exported,
    TOOL_NAME: literal(tool.name),
    TOOL_DESCRIPTION: literal(tool.description),
    TOOL_INPUT_SCHEMA: dataLiteral(tool.inputSchema),
    TOOL_COERCIONS: dataLiteral(coercions),
    TOOL_HINTS: dataLiteral(buildHintTable(tool)),
    TOOL_REFERENCES: dataLiteral(tool.references),
    TOOL_REWRITES: rewrites ?? code`undefined`,
    TOOL_HAZARD_WALK: walk ?? code`undefined`,
    TOOL_HTTP: tool.http ? dataLiteral(tool.http) : code`undefined`,
    TOOL_VALIDATOR: ident(validator.entry),
    TOOL_WRITE_ONLY: dataLiteral(writeOnlyPointers(tool.inputSchema)),
    DESCRIPTION_COMMENT: description,
  });
  const dts = fill(template.dts, {
    TOOL_EXPORT: exported,
    TOOL_ARGS: ident(args),
    TOOL_RESOLVED_ARGS: ident(kinds.length > 0 ? resolvedArgsTypeName(tool) : args),
    TOOL_REFERENCE_KINDS:
      kinds.length > 0
        ? join(
            kinds.map((kind) => literal(kind)),
            " | ",
          )
        : code`never`,
    DESCRIPTION_COMMENT: description,
  });
  assertDeclaredOnce(exported.text, js, validator, imports);
  return {
    js: `${imports.map((line) => `${line}\n`).join("")}${js}\n${VALIDATOR_COMMENT}\n${validator.code}\n`,
    dts: `${dts}\n${argumentTypes}${kinds.length > 0 ? resolvedArgsDeclaration(tool, args) : ""}`,
  };
}

const VALIDATOR_COMMENT = [
  `// The standalone validator ajv compiled from the input schema at generation time: the`,
  `// "validate" step of every call. The code is ajv's, one statement per line, indented, with a`,
  `// comment on what each block checks; its names follow the schema location, not ajv's counters,`,
  `// so a schema change changes only its own lines; its schema constants keep only the values the`,
  `// code reads.`,
].join("\n");

// The template's tables and imports and the validator's top-level declarations share the
// module's scope with the tool's export. exportName() keeps clear of every name they use; this
// checks that it did, rather than let Node refuse the module at import.
function assertDeclaredOnce(exported: string, template: string, validator: CompiledValidator, imports: readonly string[]): void {
  // The split (tool-files.ts) has read the validator's top level already: its names are used as read there.
  const names = [...topLevelNames(template, false), ...(validator.declared ?? topLevelNames(validator.code, true))];
  for (const line of imports) names.push(...importedNames(line));
  if (names.filter((name) => name === exported).length !== 1) {
    throw new Error(`the export ${exported} shares its name with another declaration of its module; exportName() must reserve the name`);
  }
}

function importedNames(line: string): string[] {
  return (/^import \{([^}]*)\}/.exec(line)?.[1] ?? "")
    .split(",")
    .map(
      (name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? "",
    )
    .filter(Boolean);
}

// Declarations and imports at column 0 and, with `countBraces`, outside any braces. The
// template's output indents nested code (and its comments may hold any text); the validator's
// braces are counted, skipping its strings (always double-quoted JSON, also in the comments
// layout.ts writes), and `const err0` inside a function is not taken for a top-level name.
function topLevelNames(code: string, countBraces: boolean): string[] {
  const names: string[] = [];
  const lineAt = (at: number): void => {
    const line = code.slice(at, code.indexOf("\n", at) >>> 0);
    const declared = /^(?:export )?(?:const|let|var|function\*?|class) ([\w$]+)/.exec(line);
    if (declared) names.push(declared[1] as string);
    else if (line.startsWith("import ")) names.push(...importedNames(line));
  };
  if (!countBraces) {
    // Every line start is at depth 0: no need to read the characters between them.
    for (let at = 0; at < code.length; at = code.indexOf("\n", at) + 1) {
      lineAt(at);
      if (code.indexOf("\n", at) < 0) break;
    }
    return names;
  }
  // Char codes, not one-character strings: this reads every character of a large validator.
  let depth = 0;
  for (let at = 0; at < code.length; at++) {
    const char = code.charCodeAt(at);
    if (char === QUOTE) {
      for (at++; at < code.length && code.charCodeAt(at) !== QUOTE; at++) if (code.charCodeAt(at) === BACKSLASH) at++;
    } else if (char === OPEN) depth++;
    else if (char === CLOSE) depth--;
    else if (depth === 0 && (at === 0 || code.charCodeAt(at - 1) === NEWLINE)) lineAt(at);
  }
  return names;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const NEWLINE = 0x0a;
