// Sets larger than the worker threshold are emitted in worker threads: the output must be what
// a single thread writes, in the same order, and a bad schema's error must cross the thread
// boundary with its message and location intact.
import { describe, expect, it } from "vitest";
import { mcpTool, type TempProject, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

function manyTools(count: number, broken: Readonly<Record<number, Record<string, unknown>>> = {}): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(2, "0")}`;
    files[`schemas/${name}.json`] = mcpTool(name, broken[i] ?? { type: "object", properties: { q: { type: "string", maxLength: i + 1 } }, required: ["q"] });
  }
  return files;
}

function project(files: Record<string, unknown>): TempProject {
  const made = newProject(files);
  return made;
}

describe("emitting a large set in worker threads", () => {
  it("writes byte for byte what one thread writes for the same tool", async () => {
    const large = project(manyTools(60));
    expect((await large.run("generate", "--quiet", "--no-cache")).code).toBe(0);
    const all = large.snapshot("generated");
    expect(Object.keys(all).filter((file) => file.startsWith("tools/"))).toHaveLength(120);
    const files = manyTools(60);
    const single = project({ "schemas/tool_37.json": files["schemas/tool_37.json"] });
    expect((await single.run("generate", "--quiet", "--no-cache")).code).toBe(0);
    const one = single.snapshot("generated");
    for (const file of ["tools/tool-37.js", "tools/tool-37.d.ts"]) expect(all[file]).toBe(one[file]);
    // The runtime and the index were made on a worker too: the same runtime, every tool listed.
    const runtime = Object.keys(one).filter((file) => file.startsWith("runtime/"));
    expect(runtime.length).toBeGreaterThan(0);
    for (const file of runtime) expect(all[file], file).toBe(one[file]);
    for (let i = 0; i < 60; i++) expect(all["index.d.ts"]).toContain(`"./tools/tool-${String(i).padStart(2, "0")}.js"`);
  });

  it("reports every bad tool with its file and place, in the tools' order", async () => {
    const bad = project(
      manyTools(60, {
        41: { type: "object", properties: { a: { type: "strnig" } } },
        7: { type: "object", properties: { a: { type: "string", maxLenght: 3 } } },
      }),
    );
    const result = await bad.run("generate", "--no-cache");
    expect(result.code).toBe(1);
    const first = result.stderr.indexOf("tool_07.json");
    const second = result.stderr.indexOf("tool_41.json");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(result.stderr).toContain(`tool_07.json: tool tool_07: unknown keyword "maxLenght" at #/properties/a\n  fix: correct the spelling`);
    expect(result.stderr).toContain(
      "tool_41.json: the input schema of tool_41 does not compile: schema is invalid: data/properties/a/type must be equal to one of the allowed values",
    );
  });
});
