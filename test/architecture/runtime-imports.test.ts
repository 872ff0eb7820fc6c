// The runtime's shape, held as tests: one folder per stage of a call, `contract/` holding the
// types every stage shares and importing nothing outside itself, and no import cycle anywhere
// (type-only imports included: a cycle of types is still two files that cannot be read apart).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");

/** Every runtime source, relative to templates/runtime with forward slashes. */
function sources(): string[] {
  return readdirSync(RUNTIME, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(path.sep).join("/"))
    .filter((name) => name.endsWith(".ts"))
    .sort();
}

/** The relative imports and re-exports of one file, resolved to paths like `sources()` gives. */
function relativeImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)) {
    found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string)));
  }
  return found;
}

/** A cycle in the graph as a list of files (first = last), or undefined. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

function runtimeGraph(): Map<string, string[]> {
  return new Map(sources().map((file) => [file, relativeImports(file, readFileSync(path.join(RUNTIME, file), "utf8"))]));
}

describe("the runtime's layout", () => {
  it("every file but index.ts sits in a stage folder", () => {
    expect(sources().filter((file) => !file.includes("/"))).toEqual(["index.ts"]);
  });

  it("every relative import names a runtime file", () => {
    const graph = runtimeGraph();
    const missing = [...graph].flatMap(([file, imports]) => imports.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`));
    expect(missing).toEqual([]);
  });

  it("contract/ imports nothing outside contract/", () => {
    const outside = [...runtimeGraph()]
      .filter(([file]) => file.startsWith("contract/"))
      .flatMap(([file, imports]) => imports.filter((target) => !target.startsWith("contract/")).map((target) => `${file} -> ${target}`));
    expect(outside).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(findCycle(runtimeGraph())).toBeUndefined();
  });

  it("the cycle finder finds a cycle", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", []],
    ]);
    expect(findCycle(graph)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
    expect(relativeImports("ledger/ledger.ts", `import type {\n  A,\n} from "../contract/api.ts";\nexport { b } from "./b.ts";`)).toEqual([
      "contract/api.ts",
      "ledger/b.ts",
    ]);
  });
});
