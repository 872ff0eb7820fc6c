// The content-hash cache: a re-run with nothing changed answers from `.toolguard/cache/` and
// writes nothing; a changed schema regenerates; cached output is byte-identical to a run
// without the cache.
import { statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

describe("generation cache", () => {
  it("leaves unchanged output untouched and regenerates what changed", async () => {
    project = new TempProject({ "schemas/lookup.json": mcpTool("lookup"), "schemas/search.json": mcpTool("search") });
    expect((await project.run("generate")).code).toBe(0);
    const first = project.snapshot("generated");
    const written = statSync(path.join(project.dir, "generated/tools/lookup.js")).mtimeMs;

    const rerun = await project.run("generate");
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain("(unchanged)");
    expect(statSync(path.join(project.dir, "generated/tools/lookup.js")).mtimeMs).toBe(written);

    project.write("schemas/search.json", mcpTool("search", { type: "object", properties: { q: { type: "string", maxLength: 9 } } }));
    expect((await project.run("generate")).code).toBe(0);
    const changed = project.snapshot("generated");
    expect(changed["tools/search.js"]).not.toBe(first["tools/search.js"]);
    expect(changed["tools/lookup.js"]).toBe(first["tools/lookup.js"]);

    const cached = project.snapshot("generated");
    expect((await project.run("generate", "--no-cache")).code).toBe(0);
    expect(project.snapshot("generated")).toEqual(cached);
  });

  it("counts an edited shared file as a change", async () => {
    project = new TempProject({
      "schemas/_shared/text.json": { $defs: { q: { type: "string" } } },
      "schemas/lookup.json": mcpTool("lookup", { type: "object", properties: { q: { $ref: "_shared/text.json#/$defs/q" } } }),
    });
    expect((await project.run("generate")).code).toBe(0);
    const before = project.snapshot("generated")["tools/lookup.js"];
    project.write("schemas/_shared/text.json", { $defs: { q: { type: "string", minLength: 4 } } });
    expect((await project.run("generate")).code).toBe(0);
    expect(project.snapshot("generated")["tools/lookup.js"]).not.toBe(before);
  });
});
