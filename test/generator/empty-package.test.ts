// A document whose every operation is skipped still generates (exit 0, with the skips said), and
// the package it writes, holding no tool, must still be valid TypeScript. The corpus found seven
// such documents whose index.d.ts declared `tools: { readonly  }`: tsc read `readonly` as a
// member name (TS7008) and the package failed every consumer's type check.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";
import { typeCheck } from "../helpers/type-check.ts";

// One operation, and it cannot be a tool: a model cannot send a file's bytes as JSON arguments.
const document = {
  openapi: "3.0.3",
  info: { title: "Uploads only", version: "1" },
  paths: {
    "/upload": {
      post: {
        operationId: "upload",
        requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        responses: { 200: { description: "ok" } },
      },
    },
  },
};

const project = new TempProject({ "schemas/api.json": document });
afterAll(() => project.remove());

describe("a set whose every operation is skipped", () => {
  it("generates a package with no tool that type-checks and imports", async () => {
    const result = await project.run("generate", "--no-cache");
    expect(result.code).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/upload/);
    expect(project.read("generated/index.d.ts")).toMatch(/export declare const tools: \{\s*\};/);
    project.write("tsconfig.json", {
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, skipLibCheck: false, types: [] },
      include: ["generated/**/*.d.ts"],
    });
    expect(typeCheck(project.dir)).toBe("");
    const probe = `const m = await import(${JSON.stringify(`file://${path.join(project.dir, "generated/index.js")}`)}); console.log(JSON.stringify([Object.keys(m.tools), m.toolDefinitions]));`;
    expect(JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }))).toEqual([[], []]);
  });
});
