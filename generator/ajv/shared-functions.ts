// A component that many tools reference was compiled into every one of their modules: OpenAI's
// `Item` validator (710 KB of code) was written five times, and 14.5 MB of the 27 MB package
// were such copies of 5.5 MB of distinct functions (issue 32). This pass cuts a tool's validator
// into the part only the tool can hold and modules any tool can share: every function ajv
// compiled for a `$ref` target that does not reach back to the arguments' own function goes to
// a module of its own (a cycle of functions that call each other goes to one module), with the
// constants it reads and imports of the modules it calls.
//
// A shared module is named by its first function and a hash of its text, so a tool decides its
// modules alone (emitting a tool never waits for another, and the cache keeps per-tool files):
// two tools whose schemas compile a definition to the same checks write the same file, and a
// definition compiled differently (another dialect, a pinned discriminator) gets a file of its
// own. A module's text holds the names of the modules it imports, so its hash covers everything
// it runs.
//
// Assumption 13 (checked, AjvAssumptionError): after layout.ts, the validator's top level holds
// only comment lines, blank lines, `const NAME = ...;` and `function NAME(...){...}`, each
// starting at column 0, and its top-level names are used only as plain identifiers. Every search
// reads codeOnly's blanked copy, so schema text never decides what is moved or imported.
import { createHash } from "node:crypto";
import { AjvAssumptionError } from "./assumption.ts";
import { stronglyConnected } from "../strongly-connected.ts";
import { codeOnly } from "./code-text.ts";
import { IDENTIFIER, type Statement, topLevelDeclarations, topLevelStatements } from "./top-level-statements.ts";
import { RUNTIME_HELPER_NAMES, runtimeImports, TOOL_RUNTIME } from "./printed-output.ts";
import { withDirectCalls } from "./direct-calls.ts";

/** A shared validator module: its file name in the package's shared folder, and its text (no header). */
export interface SharedFunctions {
  readonly file: string;
  readonly code: string;
}

/** A tool's validator once its shareable functions are cut out. */
export interface SplitValidator {
  /** The runtime imports the tool's part needs (relative to tools/), then one per shared module it calls. */
  readonly imports: readonly string[];
  readonly code: string;
  /** The names `code` declares at its top level, in order (read once here, so the module's name check need not read it again). */
  readonly declared: readonly string[];
  /** The modules the tool's part imports and every module they import, each once, by file name. */
  readonly shared: readonly SharedFunctions[];
}

/** The folder of the shared modules, relative to the tools folder. */
export const SHARED_FOLDER = "shared";

/**
 * Cuts `code` (a tool's laid-out validator, `entry` its arguments' function) into the tool's part
 * and its shared modules. A validator with nothing to share is returned as it was. `blanked` is
 * codeOnly(code), when the caller has it (layout.ts hands it on).
 */
export function splitSharedFunctions(laidOut: string, entry: string, toolImports: readonly string[], blankedIn?: string): SplitValidator {
  const { code, blanked } = withDirectCalls(laidOut, blankedIn ?? codeOnly(laidOut));
  const declarations = topLevelDeclarations(code, blanked);
  if (!declarations.some((declaration) => declaration.name === entry))
    throw new AjvAssumptionError("the validator declares its entry function at the top level", `${entry} not found`);
  // The entry is the tool's own, so a validator whose one function is the entry has nothing to
  // share: its statements' texts and the names they read are not needed (GitHub's set: 1,204 of
  // 1,222 tools, whose reading of every statement's names was most of this pass).
  if (declarations.filter((declaration) => declaration.kind === "function").length === 1)
    return { imports: toolImports, code, declared: declarations.map((declaration) => declaration.name), shared: [] };
  const statements = topLevelStatements(code, blanked, declarations);
  const byName = new Map(statements.map((statement) => [statement.name, statement]));
  // What reaches the entry stays with the tool: the entry is the tool's own.
  const pinned = new Set([entry]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const statement of statements) {
      if (pinned.has(statement.name) || ![...statement.uses].some((name) => pinned.has(name))) continue;
      pinned.add(statement.name);
      grew = true;
    }
  }
  const shareable = statements.filter((statement) => statement.kind === "function" && !pinned.has(statement.name));
  if (shareable.length === 0) return { imports: toolImports, code, declared: statements.map((statement) => statement.name), shared: [] };
  const calls = (statement: Statement): Set<string> => functionsReached(statement, byName);
  const modules = new Map<string, SharedFunctions>();
  const moduleOf = new Map<string, SharedFunctions>();
  // Callees' modules first, so that a module's imports name files already made.
  const byShareable = new Map(shareable.map((statement) => [statement.name, statement]));
  const components = stronglyConnected(
    shareable.map((statement) => statement.name),
    (name) => [...calls(byShareable.get(name) as Statement)].filter((callee) => byShareable.has(callee)),
  );
  for (const names of components) {
    const group = names.map((name) => byShareable.get(name) as Statement);
    const members = new Set(names);
    const body = moduleBody(group, members, byName, moduleOf);
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 10);
    const first = [...members].sort()[0] as string;
    const file = `${first.replace(/^validate_/, "").slice(0, 60)}-${hash}.js`;
    const module = { file, code: body };
    modules.set(file, module);
    for (const name of members) moduleOf.set(name, module);
  }
  // The tool keeps its own functions, the constants they read, and any constant nothing reads.
  const functions = statements.filter((statement) => statement.kind === "function" && !moduleOf.has(statement.name));
  const read = constantsRead(functions, byName);
  const readAtAll = constantsRead(statements, byName);
  const kept = statements.filter((statement) =>
    statement.kind === "function" ? !moduleOf.has(statement.name) : read.has(statement.name) || !readAtAll.has(statement.name),
  );
  const keptCode = joinStatements(kept);
  const keptBlanked = joinStatements(kept, "blanked");
  const imports = [...runtimeImports(keptBlanked, RUNTIME_HELPER_NAMES, TOOL_RUNTIME), ...importLines(kept, moduleOf, `./${SHARED_FOLDER}/`)];
  const shared = [...modules.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { imports, code: keptCode, declared: kept.map((statement) => statement.name), shared };
}

/** The functions a statement calls, directly or through the constants it reads (`wrapper_x = {validate: validate_x}`). */
function functionsReached(statement: Statement, byName: ReadonlyMap<string, Statement>): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>([statement.name]);
  const visit = (names: ReadonlySet<string>): void => {
    for (const name of names) {
      const used = byName.get(name);
      if (!used || seen.has(name)) continue;
      seen.add(name);
      if (used.kind === "function") out.add(name);
      else visit(used.uses);
    }
  };
  visit(statement.uses);
  return out;
}

/** The constants `statements` read, and the constants those read, by name. */
function constantsRead(statements: readonly Statement[], byName: ReadonlyMap<string, Statement>): Set<string> {
  const out = new Set<string>();
  const visit = (names: ReadonlySet<string>): void => {
    for (const name of names) {
      const used = byName.get(name);
      if (used?.kind !== "const" || out.has(name)) continue;
      out.add(name);
      visit(used.uses);
    }
  };
  for (const statement of statements) visit(statement.uses);
  return out;
}

/** The text of one shared module: imports, the constants its functions read, the functions, the export. */
function moduleBody(
  group: readonly Statement[],
  members: ReadonlySet<string>,
  byName: ReadonlyMap<string, Statement>,
  moduleOf: ReadonlyMap<string, SharedFunctions>,
): string {
  const constants = constantsRead(group, byName);
  // In an order of their own, not the tool's: ajv declares constants in the order the whole
  // tool's compilation met them.
  const own = [...inDependencyOrder([...constants].map((name) => byName.get(name) as Statement)), ...[...group].sort(byStatementName)];
  const renames = moduleNames(own);
  // Two constants that come out with one name hold one value (moduleNames checks it): declared once.
  const declared = new Set<string>();
  const once = own.filter((statement) => {
    const name = renames.get(statement.name) ?? statement.name;
    if (declared.has(name)) return false;
    declared.add(name);
    return true;
  });
  const { code, blanked } = withNames(joinStatements(once), renames, joinStatements(once, "blanked"));
  const imports = [...runtimeImports(blanked, RUNTIME_HELPER_NAMES, `../${TOOL_RUNTIME}`), ...importLines(own, moduleOf, "./")];
  // By name, as the file is named: the order the tool's compilation met them in is the tool's.
  const names = [...members].sort().join(", ");
  return [
    `// The checks of ${names}, as ajv compiled them from a schema definition: written once for`,
    `// every tool of this package that refers to it, and imported by each. The file name's hash is`,
    `// of this text, so each tool imports exactly the checks its own schema compiled to.`,
    ...imports,
    code,
    `export { ${names} };`,
    "",
  ].join("\n");
}

/**
 * The names of `statements`' constants for this module alone. stable-names.ts names a schema constant
 * by the first place its value sits in the tool's schema and tells two that came out equal apart
 * by ajv's counter, and hashes a wrapper (`{validate: validate20}`) as ajv printed it: all of it
 * depends on the rest of the tool, so two tools would write one definition's checks in two
 * texts. Here a schema constant keeps its name without that suffix (only two of the module that
 * still meet are told apart, by their values), and a hashed name is hashed again from its value
 * as the module holds it. Two constants of one base and one value (two definitions that are both
 * `{"enum":[0,1,2]}`) get one name, and the module declares it once.
 */
function moduleNames(statements: readonly Statement[]): Map<string, string> {
  const taken = new Set(statements.map((statement) => statement.name));
  const renames = new Map<string, string>();
  const bases = new Map<string, Statement[]>();
  const valueText = (statement: Statement): string => statement.text.slice(statement.text.indexOf("=", statement.text.indexOf(statement.name)) + 1);
  const hashOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 6);
  for (const statement of statements) {
    if (statement.kind !== "const") continue;
    const hashed = /^([A-Za-z]+)_[0-9a-f]{6}$/.exec(statement.name);
    if (statement.name.startsWith("schema_")) {
      const base = statement.name.replace(/_[0-9a-f]{6}$/, "");
      bases.set(base, [...(bases.get(base) ?? []), statement]);
    } else if (hashed) renames.set(statement.name, `${hashed[1]}_${hashOf(withNames(valueText(statement), renames).code)}`);
  }
  for (const [base, named] of bases) {
    for (const statement of named) {
      // A constant stable-names.ts found no place for is named by its value already.
      const name = named.length === 1 && base !== "schema" ? base : `${base}_${hashOf(valueText(statement))}`;
      if (name !== statement.name && taken.has(name)) continue;
      renames.set(statement.name, name);
    }
  }
  // One name, one value: a name two different values reached (a 6-digit hash collision) would
  // make one constant read as the other, so it stops here rather than merging them.
  const valueByName = new Map<string, string>();
  for (const statement of statements) {
    if (statement.kind !== "const") continue;
    const name = renames.get(statement.name) ?? statement.name;
    const value = withNames(valueText(statement), renames).code;
    const seen = valueByName.get(name);
    if (seen !== undefined && seen !== value)
      throw new AjvAssumptionError("a shared module's constant names tell its values apart", `two values named ${name}`);
    valueByName.set(name, value);
  }
  return renames;
}

// A top-level name is a plain identifier wherever the code uses it (assumption 13): rename
// where codeOnly's view shows one, never inside schema text. `blanked` is codeOnly(code) when the
// caller has it; the blanked copy returned is the renamed code's (a renamed name is code, its
// own blanked copy).
function withNames(code: string, renames: ReadonlyMap<string, string>, blanked: string = codeOnly(code)): { code: string; blanked: string } {
  if (renames.size === 0) return { code, blanked };
  const parts: string[] = [];
  const blankedParts: string[] = [];
  let last = 0;
  for (const match of code.matchAll(IDENTIFIER)) {
    const name = match[0];
    const at = match.index;
    const renamed = renames.get(name);
    if (renamed === undefined || blanked.slice(at, at + name.length) !== name) continue;
    parts.push(code.slice(last, at), renamed);
    blankedParts.push(blanked.slice(last, at), renamed);
    last = at + name.length;
  }
  parts.push(code.slice(last));
  blankedParts.push(blanked.slice(last));
  return { code: parts.join(""), blanked: blankedParts.join("") };
}

const byStatementName = (a: Statement, b: Statement): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Constants by name, each after the constants its value reads (`pattern_x = func_linearRegExp(...)`). */
function inDependencyOrder(constants: readonly Statement[]): Statement[] {
  const left = [...constants].sort(byStatementName);
  const out: Statement[] = [];
  const placed = new Set<string>();
  const pending = new Set(left.map((statement) => statement.name));
  while (left.length > 0) {
    const at = left.findIndex((statement) => [...statement.uses].every((name) => placed.has(name) || !pending.has(name)));
    // Constants that read each other in a cycle could not run in any order; none is left out.
    const next = left.splice(Math.max(at, 0), 1)[0] as Statement;
    out.push(next);
    placed.add(next.name);
  }
  return out;
}

/** An import line per shared module the statements call (and do not hold), sorted by file. */
function importLines(statements: readonly Statement[], moduleOf: ReadonlyMap<string, SharedFunctions>, folder: string): string[] {
  const held = new Set(statements.map((statement) => statement.name));
  const wanted = new Map<string, Set<string>>();
  for (const statement of statements) {
    for (const name of statement.uses) {
      const module = moduleOf.get(name);
      if (!module || held.has(name)) continue;
      wanted.set(module.file, (wanted.get(module.file) ?? new Set()).add(name));
    }
  }
  return [...wanted]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, names]) => `import { ${[...names].sort().join(", ")} } from "${folder}${file}";`);
}

// As layout.ts writes the top level: a declaration with a comment above it follows a blank line.
// `view` is each statement's text, or its blanked copy (where the comment line is spaces): the
// blank lines fall where the texts put them, so the joined copy is the joined text's.
function joinStatements(statements: readonly Statement[], view: "text" | "blanked" = "text"): string {
  const out: string[] = [];
  for (const statement of statements) {
    if (out.length > 0 && statement.text.startsWith("//")) out.push("");
    out.push(statement[view]);
  }
  return out.join("\n");
}
