// An emit worker writes its own tool's files to the spill folder and stores its own cache entry,
// then answers with the files' paths (generator/speed/emit-worker.ts, spill-write.ts): a large
// set's text never crosses to the main thread. Two threads writing one path (a shared module two
// tools import) leave one whole file when their bytes agree, and keep the second text in memory
// when they do not, so that the package still stops on the clash.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../generator/config.ts";
import { withSharedModulesOnce } from "../../generator/emit/shared-modules.ts";
import { emitTool } from "../../generator/emit/tool-files.ts";
import { toolTemplate, useToolTemplate } from "../../generator/emit/tool-template.ts";
import { describeSet } from "../../generator/generate.ts";
import type { EmitAnswer, EmitTask } from "../../generator/speed/emit-worker.ts";
import { Spill, SpilledFile } from "../../generator/speed/spill.ts";
import { mcpTool, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const project = projectsRemovedAfterEach();

/** Enough tools for the worker threads. */
function manyTools(count: number, maxLengthOf = (i: number) => i + 1): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(2, "0")}`;
    files[`schemas/${name}.json`] = mcpTool(name, { type: "object", properties: { q: { type: "string", maxLength: maxLengthOf(i) } }, required: ["q"] });
  }
  return files;
}

/** Runs one task on a real emit worker, as the pool does; resolves to its answer. */
async function onEmitWorker(task: EmitTask): Promise<EmitAnswer> {
  const worker = new Worker(new URL("../../generator/speed/emit-worker.ts", import.meta.url));
  try {
    const reply = new Promise<{ outcome: { ok: boolean; value: EmitAnswer; error?: unknown } }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    worker.postMessage({ setup: toolTemplate() });
    worker.postMessage({ index: 0, item: task });
    const { outcome } = await reply;
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    return outcome.value;
  } finally {
    await worker.terminate();
  }
}

/** `spill-write.ts`'s `spillFile` on each of `files`, in a thread of its own; resolves to what it answered for each. */
async function spillOnThread(folder: string, files: readonly { path: string; content: string }[], start: Int32Array): Promise<unknown[]> {
  const module = new URL("../../generator/speed/spill-write.ts", import.meta.url).href;
  const code = `
    const { workerData, parentPort } = require("node:worker_threads");
    import(${JSON.stringify(module)}).then(({ spillFile }) => {
      Atomics.wait(workerData.start, 0, 0); // both threads begin together
      parentPort.postMessage(workerData.files.map((file) => spillFile(workerData.folder, file) ?? null));
    });`;
  const worker = new Worker(code, { eval: true, workerData: { folder, files, start } });
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("an emit worker given a spill folder and a cache entry", () => {
  it("writes the tool's files and its entry itself, and answers with paths, not text", async () => {
    const temp = project(manyTools(1));
    const config = resolveConfig({ sets: [{ schemas: "schemas", out: "generated" }] }, undefined, temp.dir);
    const set = config.sets[0] as (typeof config.sets)[number];
    const [tool] = (await describeSet(set, config)).tools;
    if (!tool) throw new Error("no tool described");
    const spill = (await Spill.open(set.out)) as Spill;
    const entry = path.join(temp.dir, "cache", "tools", "entry.json");
    const answer = await onEmitWorker({ kind: "tool", tool, spill: spill.folder, store: entry });
    useToolTemplate(toolTemplate());
    const expected = await emitTool(tool);
    expect(answer.stored).toBe(true);
    // The answer: each file's path in the package and on disk, and no text.
    expect(answer.files).toEqual(expected.map((file) => ({ path: file.path, spilledAt: path.join(spill.folder, file.path) })));
    for (const file of expected) expect(readFileSync(path.join(spill.folder, file.path), "utf8")).toBe(file.content);
    // The cache entry holds the text, as the main thread's store would.
    expect(JSON.parse(readFileSync(entry, "utf8"))).toEqual(expected.map(({ path, content }) => ({ path, content })));
    // Adopted as files that read their text back, one object per file on disk.
    const adopted = spill.adopt(answer.files);
    expect(adopted.every((file) => file instanceof SpilledFile)).toBe(true);
    expect(spill.adopt(answer.files)[0]).toBe(adopted[0]);
    expect(adopted.map((file) => file.content)).toEqual(expected.map((file) => file.content));
    // No half-written names left beside them.
    expect(readdirSync(path.join(spill.folder, "tools")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    spill.remove();
  });
});

describe("two threads spilling one path", () => {
  const files = (text: string) => Array.from({ length: 200 }, (_, i) => ({ path: `tools/shared/m-${i}.js`, content: `${text} ${i}\n`.repeat(2000) }));

  it("share one whole file when their bytes agree", async () => {
    const temp = project();
    const folder = path.join(temp.dir, "spill");
    mkdirSync(folder);
    const start = new Int32Array(new SharedArrayBuffer(4));
    const racing = [spillOnThread(folder, files("same"), start), spillOnThread(folder, files("same"), start)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    Atomics.store(start, 0, 1);
    Atomics.notify(start, 0);
    const [a, b] = await Promise.all(racing);
    const expected = files("same").map((file) => ({ path: file.path, spilledAt: path.join(folder, file.path) }));
    expect(a).toEqual(expected);
    expect(b).toEqual(expected);
    for (const file of files("same")) expect(readFileSync(path.join(folder, file.path), "utf8")).toBe(file.content);
    expect(readdirSync(path.join(folder, "tools/shared"))).toHaveLength(200); // no temporary names left
  });

  it("keep the second text in memory when they do not, and the file on disk is the first one whole", async () => {
    const temp = project();
    const folder = path.join(temp.dir, "spill");
    mkdirSync(folder);
    const start = new Int32Array(new SharedArrayBuffer(4));
    const racing = [spillOnThread(folder, files("one"), start), spillOnThread(folder, files("two"), start)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    Atomics.store(start, 0, 1);
    Atomics.notify(start, 0);
    const [one = [], two = []] = (await Promise.all(racing)) as (object | null)[][];
    for (const [i, file] of files("one").entries()) {
      // Exactly one of the two wrote each path, and the file holds that thread's bytes.
      const winner = one[i] !== null ? "one" : "two";
      expect([one[i] === null, two[i] === null].filter(Boolean)).toHaveLength(1);
      expect(readFileSync(path.join(folder, file.path), "utf8")).toBe(`${winner} ${i}\n`.repeat(2000));
    }
    // What the main thread then makes of one such path: the clash is stopped.
    const spill = (await Spill.open(path.join(temp.dir, "generated"))) as Spill;
    const [first] = spill.put([{ path: "tools/shared/m.js", content: "one" }]);
    const [second] = spill.put([{ path: "tools/shared/m.js", content: "two" }]);
    expect(second).not.toBeInstanceOf(SpilledFile);
    expect(() => withSharedModulesOnce([first, second] as SpilledFile[])).toThrow(/two tools emitted tools\/shared\/m.js with different contents/);
    spill.remove();
  });
});

describe("a large set generated with the cache", () => {
  it("stores each tool's text in the entries its workers wrote, and a re-run from them writes the same bytes", async () => {
    const temp = project(manyTools(60));
    expect((await temp.run("generate", "--quiet")).code).toBe(0);
    const entries = readdirSync(path.join(temp.dir, ".toolguard/cache/tools"));
    expect(entries.length).toBeGreaterThanOrEqual(60);
    for (const name of entries) {
      const stored = JSON.parse(readFileSync(path.join(temp.dir, ".toolguard/cache/tools", name), "utf8")) as { path: string; content?: string }[];
      for (const file of stored) expect(typeof file.content, `${name}: ${file.path}`).toBe("string");
    }
    // One tool changed: the other 59 come from those entries.
    const changed = manyTools(60, (i) => (i === 5 ? 99 : i + 1));
    temp.write("schemas/tool_05.json", changed["schemas/tool_05.json"]);
    expect((await temp.run("generate", "--quiet")).code).toBe(0);
    const fresh = project(changed);
    expect((await fresh.run("generate", "--quiet", "--no-cache")).code).toBe(0);
    expect(temp.snapshot("generated")).toEqual(fresh.snapshot("generated"));
  });
});
