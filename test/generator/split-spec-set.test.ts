// A schema set that is one OpenAPI document split over files, laid out as vendors lay them out
// (fixtures/openapi/split: openapi.yaml and the schemas/ it `$ref`s): the parts are never read
// as tool files, with or without the config naming the entry.
import { cpSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const SPLIT = path.resolve(import.meta.dirname, "../fixtures/openapi/split");

describe("a split OpenAPI document as a schema set", () => {
  let project: TempProject;
  afterEach(() => project.remove());

  const tools = (): string[] => readdirSync(path.join(project.dir, "generated/tools")).sort();

  function withSplitSpec(config?: unknown): TempProject {
    project = new TempProject(config === undefined ? {} : { "toolguard.config.json": config });
    cpSync(SPLIT, path.join(project.dir, "schemas"), { recursive: true });
    return project;
  }

  it("finds the entry as the one document with `openapi` that nothing references", async () => {
    const result = await withSplitSpec().run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(["create-pet.d.ts", "create-pet.js"]);
  });

  it("reads only the entry the config names", async () => {
    const result = await withSplitSpec({ sets: [{ schemas: "schemas", out: "generated", entry: "openapi.yaml" }] }).run("generate");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(["create-pet.d.ts", "create-pet.js"]);
  });

  it("an entry that is not an OpenAPI document is named", async () => {
    const result = await withSplitSpec({ sets: [{ schemas: "schemas", out: "generated", entry: "schemas/pet.yaml" }] }).run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("schemas/pet.yaml: the set's entry has no top-level `openapi` field");
  });
});
