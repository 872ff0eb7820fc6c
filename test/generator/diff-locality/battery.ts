// The diff-locality battery (issue 30): schema edits a tool team makes, each applied to a tool,
// regenerated and diffed with git as a reviewer sees it. A line that changes only by a name's
// number or hash (`err20` -> `err21`, `schema31` -> `schema32`) is noise that hides the change:
// the generated code must have none. Shared by diff-locality.test.ts and table.ts (docs/diff.md).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { emitTool } from "../../../generator/emit/tool-files.ts";
import type { ToolDescription } from "../../../generator/ir.ts";

type Schema = Record<string, unknown>;

/** One edit: the schema after it, or undefined when the tool has nothing it applies to. */
export interface Edit {
  readonly name: string;
  readonly apply: (schema: Schema) => Schema | undefined;
}

const NEW_FIELD = { type: "string", maxLength: 40, description: "A reference the caller chooses." };

function properties(schema: Schema): [string, unknown][] {
  return Object.entries((schema.properties ?? {}) as Schema);
}

function withProperties(schema: Schema, entries: [string, unknown][]): Schema {
  return { ...schema, properties: Object.fromEntries(entries) };
}

/** The first object in document order that passes `test`. */
function firstHolding(value: unknown, test: (node: Schema) => boolean): Schema | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (!Array.isArray(value) && test(value as Schema)) return value as Schema;
  for (const child of Object.values(value)) {
    const found = firstHolding(child, test);
    if (found) return found;
  }
  return undefined;
}

/** Applies `change` to the first node passing `test` in a copy of `schema`. */
function editFirst(schema: Schema, test: (node: Schema) => boolean, change: (node: Schema) => void): Schema | undefined {
  const copy = structuredClone(schema);
  const node = firstHolding(copy, test);
  if (!node) return undefined;
  change(node);
  return copy;
}

const BOUNDS = ["maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems"];

export const EDITS: readonly Edit[] = [
  { name: "add a property first", apply: (s) => withProperties(s, [["added_field", NEW_FIELD], ...properties(s)]) },
  {
    name: "add a property in the middle",
    apply: (s) => {
      const entries = properties(s);
      const at = Math.ceil(entries.length / 2);
      return withProperties(s, [...entries.slice(0, at), ["added_field", NEW_FIELD], ...entries.slice(at)]);
    },
  },
  { name: "add a property last", apply: (s) => withProperties(s, [...properties(s), ["added_field", NEW_FIELD]]) },
  {
    // An optional leaf, in the first object that has one: removing a whole nested object
    // (GitHub's `body`) would measure that object's size.
    name: "remove an optional property",
    apply: (s) => {
      const leaf = (node: Schema): string | undefined => {
        const required = new Set((node.required ?? []) as string[]);
        return properties(node).findLast(([key, value]) => !required.has(key) && !/"(?:properties|items|\$ref)"/.test(JSON.stringify(value)))?.[0];
      };
      return editFirst(
        s,
        (node) => leaf(node) !== undefined,
        (node) => {
          const gone = leaf(node) as string;
          node.properties = Object.fromEntries(properties(node).filter(([key]) => key !== gone));
        },
      );
    },
  },
  {
    name: "reorder (last property first)",
    apply: (s) => {
      const entries = properties(s);
      return entries.length < 2 ? undefined : withProperties(s, [entries.at(-1) as [string, unknown], ...entries.slice(0, -1)]);
    },
  },
  {
    name: "change a bound",
    apply: (s) =>
      editFirst(
        s,
        (node) => BOUNDS.some((key) => typeof node[key] === "number"),
        (node) => {
          const key = BOUNDS.find((bound) => typeof node[bound] === "number") as string;
          node[key] = (node[key] as number) + 1;
        },
      ),
  },
  {
    name: "add an enum value",
    apply: (s) =>
      editFirst(
        s,
        (node) => Array.isArray(node.enum) && (node.enum as unknown[]).every((value) => typeof value === "string"),
        (node) => {
          node.enum = [...(node.enum as string[]), "added_value"];
        },
      ),
  },
  {
    name: "add a definition (and a property using it)",
    apply: (s) => {
      const defs = s.definitions !== undefined && s.$defs === undefined ? "definitions" : "$defs";
      const added = withProperties(s, [...properties(s), ["added_ref", { $ref: `#/${defs}/added_definition` }]]);
      added[defs] = {
        ...((s[defs] ?? {}) as Schema),
        added_definition: { type: "object", properties: { label: { type: "string", minLength: 1 } }, required: ["label"], additionalProperties: false },
      };
      return added;
    },
  },
  {
    name: "change a description",
    apply: (s) =>
      editFirst(
        s,
        (node) => typeof node.description === "string" && typeof node.type === "string",
        (node) => {
          node.description = `${node.description as string} Changed.`;
        },
      ),
  },
];

/** A name's number or six-hex hash, the parts a rename alone changes. */
const NUMBERED_NAME = /(?<![\w$])([A-Za-z_$][A-Za-z_$]*?)(?:\d+|_[0-9a-f]{6})(?![\w$])/g;

export interface Measured {
  /** Lines removed plus lines added, as `git diff` counts them. */
  readonly changed: number;
  /** Lines removed or added that have a twin on the other side differing only in names' numbers or hashes (both counted). */
  readonly renamedOnly: number;
  readonly renamedExamples: readonly string[];
}

/** Diffs two texts with `git diff --no-index` and counts the lines that changed only by renaming. */
export function measure(before: string, after: string): Measured {
  const dir = mkdtempSync(path.join(tmpdir(), "toolguard-locality-"));
  try {
    writeFileSync(path.join(dir, "a.js"), before);
    writeFileSync(path.join(dir, "b.js"), after);
    let out = "";
    try {
      out = execFileSync("git", ["diff", "--no-index", "--no-color", "-U0", "a.js", "b.js"], { cwd: dir, encoding: "utf8" });
    } catch (error) {
      // git diff exits 1 when the files differ.
      out = (error as { stdout?: string }).stdout ?? "";
    }
    const removed: string[] = [];
    const added: string[] = [];
    for (const line of out.split("\n")) {
      if (line.startsWith("---") || line.startsWith("+++")) continue;
      if (line.startsWith("-")) removed.push(line.slice(1));
      else if (line.startsWith("+")) added.push(line.slice(1));
    }
    // A line removed and added unchanged moved (a reorder); it is not a rename.
    const addedLeft = countOf(added);
    const removedLeft = removed.filter((line) => !take(addedLeft, line));
    const addedNormal = new Map<string, number>();
    for (const [line, n] of addedLeft) addedNormal.set(normalise(line), (addedNormal.get(normalise(line)) ?? 0) + n);
    const renamed = removedLeft.filter((line) => take(addedNormal, normalise(line)));
    return { changed: removed.length + added.length, renamedOnly: 2 * renamed.length, renamedExamples: renamed.slice(0, 5) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function normalise(line: string): string {
  return line.replace(NUMBERED_NAME, "$1#");
}

function countOf(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

function take(counts: Map<string, number>, line: string): boolean {
  const n = counts.get(line) ?? 0;
  if (n === 0) return false;
  counts.set(line, n - 1);
  return true;
}

/**
 * The tool's generated code: its module (`tools/<name>.js`), then the shared validator modules it
 * imports (`tools/shared/`), in path order, so an edit of a shared definition is measured too.
 */
export async function moduleOf(tool: ToolDescription): Promise<string> {
  const files = (await emitTool(tool)).filter((file) => file.path.endsWith(".js"));
  const shared = files.filter((file) => file.path.startsWith("tools/shared/")).sort((a, b) => (a.path < b.path ? -1 : 1));
  const own = files.filter((file) => !file.path.startsWith("tools/shared/"));
  return [...own, ...shared].map((file) => file.content).join("");
}

export interface EditResult extends Measured {
  readonly edit: string;
}

/** Every edit of the battery on `tool`: undefined where the tool has nothing the edit applies to. */
export async function runBattery(tool: ToolDescription): Promise<(EditResult | undefined)[]> {
  const before = await moduleOf(tool);
  const results: (EditResult | undefined)[] = [];
  for (const edit of EDITS) {
    const schema = edit.apply(tool.inputSchema as Schema);
    if (!schema) {
      results.push(undefined);
      continue;
    }
    const after = await moduleOf({ ...tool, inputSchema: schema } as ToolDescription);
    results.push({ edit: edit.name, ...measure(before, after) });
  }
  return results;
}
