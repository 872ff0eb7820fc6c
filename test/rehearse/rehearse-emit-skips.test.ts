// What stops emitting one tool of a document (a reference fan-out, found in building its coercion
// table) skips that tool in `rehearse`, as `generate` skips it, instead of refusing the whole set.
// Glean's Speakeasy-managed description (docs/corpus.md, "Fresh inputs, round 21: descriptions")
// has 7 such operations of 96: `rehearse` exited 1 with "the schemas could not be read".
import { describe, expect, it } from "vitest";
import { projectsRemovedAfterEach } from "../helpers/temp-project.ts";
import { parseReport } from "./rehearse-helpers.ts";

const newProject = projectsRemovedAfterEach();

/** `levels` definitions, each an object of `width` properties that all refer to the one below. */
function fan(levels: number, width: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { l0: { type: "integer" } };
  for (let level = 1; level <= levels; level++) {
    const properties = Object.fromEntries(Array.from({ length: width }, (_, i) => [`p${i}`, { $ref: `#/components/schemas/l${level - 1}` }]));
    schemas[`l${level}`] = { type: "object", properties };
  }
  return schemas;
}

const body = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
const document = {
  openapi: "3.0.3",
  info: { title: "fan", version: "1" },
  paths: {
    "/search": {
      post: {
        operationId: "search",
        requestBody: body({ type: "object", properties: { query: { type: "string" } } }),
        responses: { "200": { description: "ok" } },
      },
    },
    "/admin": { post: { operationId: "adminsearch", requestBody: body({ $ref: "#/components/schemas/l6" }), responses: { "200": { description: "ok" } } } },
  },
  components: { schemas: fan(6, 6) },
};

describe("rehearse on a document with one tool too wide to emit", () => {
  it("skips that tool with generate's reason and rehearses the others", async () => {
    const project = newProject({ "api/fan.json": document, "toolguard.config.json": { sets: [{ schemas: "api", out: "out" }] } });
    const generated = await project.run("generate", "--no-cache");
    expect(generated.code).toBe(0);
    expect(generated.stdout + generated.stderr).toContain("adminsearch");
    const run = await project.run("rehearse", "--json", "--limit", "4");
    expect(run.code).toBe(0);
    const report = parseReport(run.stdout);
    expect(report.tools.map(({ tool }) => tool)).toEqual(["search"]);
    expect(report.skipped).toEqual([
      { set: expect.any(String), tool: "adminsearch", source: "api/fan.json", reason: expect.stringContaining("a reference fan-out") },
    ]);
  });
});
