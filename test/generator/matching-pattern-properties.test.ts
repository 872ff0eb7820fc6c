// A `patternProperties` pattern that matches a declared property is legal JSON Schema: both the
// property's schema and the pattern's apply to its value. ajv's strict mode refused such a
// schema ("property a matches pattern ^a (use allowMatchingProperties)"), so a legal tool could
// not be generated (issue 32, noticed in generator/ajv/instances.ts). It generates now, and the
// guard applies both schemas, as JSON Schema says.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpTool, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

const schema = {
  type: "object",
  properties: { amount: { type: "string" }, label: { type: "string" } },
  // Matches the declared `amount` (and undeclared `amount_2`): digits only, at most 4.
  patternProperties: { "^amount": { type: "string", pattern: "^[0-9]+$", maxLength: 4 } },
  additionalProperties: false,
};

describe("a patternProperties pattern that matches a declared property", () => {
  for (const [kind, files] of [
    ["a tool file", { "schemas/pay.json": mcpTool("pay", schema) }],
    [
      "an OpenAPI operation",
      {
        "schemas/api.json": {
          openapi: "3.1.0",
          info: { title: "t", version: "1" },
          paths: {
            "/pay": {
              post: {
                operationId: "pay",
                requestBody: { required: true, content: { "application/json": { schema } } },
                responses: { 200: { description: "ok" } },
              },
            },
          },
        },
      },
    ],
  ] as const) {
    it(`generates, and both schemas apply (${kind})`, async () => {
      const project = newProject(files);
      const result = await project.run("generate", "--no-cache");
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain("skipped");
      const pkg = await import(path.join(project.dir, "generated/index.js"));
      const tool = pkg.pay.implement(() => "ran", { ledger: new pkg.MemorySink() });
      const wrap = (args: Record<string, unknown>) => (kind === "a tool file" ? args : { body: args });
      let turn = 0;
      // Each call in a turn of its own: a turn's repair budget would stop the later ones.
      const verdict = async (args: Record<string, unknown>): Promise<string> => {
        const outcome = await tool.call(JSON.stringify(wrap(args)), { turn: `t${turn++}` });
        return outcome.status === "ok" ? "ok" : (outcome.errors ?? []).map((error: { rule: string }) => error.rule).join(",");
      };
      expect(await verdict({ amount: "120", label: "x" })).toBe("ok");
      expect(await verdict({ amount: "12a" })).toBe("pattern"); // the pattern's schema
      expect(await verdict({ amount: "12345" })).toBe("maxLength"); // the pattern's maxLength
      expect(await verdict({ amount: 120 })).toMatch(/^type/); // the declared (and the pattern's) type
      expect(await verdict({ amount_2: "7" })).toBe("ok"); // an undeclared name the pattern takes
      expect(await verdict({ amount_2: "x" })).toBe("pattern");
      expect(await verdict({ other: "x" })).not.toBe("ok"); // neither declared nor matched
    });
  }
});
