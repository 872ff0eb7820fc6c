// A `$ref` inside data (an example, a default, an enum or const value) is a member of a value,
// never a reference. PagerDuty's description writes `example: {$ref: "#/components/examples/.../value"}`
// in a schema; json-schema-to-typescript's ref-parser followed it and generation failed (issue 32),
// then skipped the operation. The tool is generated.
import { afterEach, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe("$ref-shaped data in a schema", () => {
  it("in an example is data: the operation becomes a tool", async () => {
    const project = new TempProject({
      "schemas/api.json": {
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {
          "/x": {
            post: {
              operationId: "make_x",
              requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/X" } } } },
              responses: { 200: { description: "ok" } },
            },
          },
        },
        components: {
          examples: { E: { summary: "s", value: { a: 1 } } },
          schemas: {
            X: {
              type: "object",
              properties: {
                a: { type: "integer", example: { $ref: "#/components/examples/E/value" } },
              },
              example: { $ref: "#/components/examples/E/value" },
            },
          },
        },
      },
    });
    projects.push(project);
    const result = await project.run("generate", "--no-cache");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("generated: 1 tool,");
    expect(result.stdout).not.toContain("skipped");
    expect(project.read("generated/tools/make-x.d.ts")).not.toMatch(/_tg\d/);
  });
});
