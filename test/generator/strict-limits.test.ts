// OpenAI's size limits for strict function schemas, checked at generation for sets with an
// OpenAI extra: each limit on a schema just over it (and one just under), and the warning
// `generate` prints, naming the tool and the limit, only when the set opts into the extra.
import { describe, expect, it } from "vitest";
import { OPENAI_STRICT_LIMITS as LIMITS, strictLimitsExceeded } from "../../templates/runtime/providers/strict-limits.ts";
import type { InputSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { chooseStrictness } from "../../templates/runtime/providers/strict-choice.ts";
import { TempProject } from "../helpers/temp-project.ts";

const object = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const fields = (count: number, schema: unknown = { type: "string" }) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`f${index}`, schema]));
/** Objects nested `levels` deep, the root included. */
const nested = (levels: number): Record<string, unknown> => (levels === 1 ? object({ leaf: { type: "string" } }) : object({ child: nested(levels - 1) }));
const enumOf = (count: number, width = 4) => ({ type: "string", enum: Array.from({ length: count }, (_, index) => String(index).padStart(width, "0")) });

describe("OpenAI's strict limits", () => {
  it.each([
    ["object properties", object(fields(LIMITS.properties)), object(fields(LIMITS.properties + 1)), /5001 object properties in all \(OpenAI's limit: 5000\)/],
    ["nesting", nested(LIMITS.nesting), nested(LIMITS.nesting + 1), /11 levels of object nesting \(OpenAI's limit: 10\)/],
    ["enum values", object({ a: enumOf(600), b: enumOf(400) }), object({ a: enumOf(600), b: enumOf(401) }), /1001 enum values in all \(OpenAI's limit: 1000\)/],
    [
      "one large enum's characters",
      object({ a: enumOf(251, 59) }),
      object({ a: enumOf(251, 60) }),
      /#\/properties\/a\/enum: 251 string values of 15060 characters \(OpenAI's limit: 15000 characters for an enum of over 250 values\)/,
    ],
    [
      "total characters",
      object({ a: { type: "string", const: "x".repeat(LIMITS.totalChars - 1) } }),
      object({ a: { type: "string", const: "x".repeat(LIMITS.totalChars) } }),
      /120001 characters of property names, definition names, enum and const values \(OpenAI's limit: 120000\)/,
    ],
  ])("%s: at the limit nothing, over it named", (_limit, at, over, message) => {
    expect(strictLimitsExceeded(at as unknown as InputSchema)).toEqual([]);
    const found = strictLimitsExceeded(over as unknown as InputSchema);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it("counts nesting through $refs", () => {
    const schema = { ...object({ child: { $ref: "#/$defs/deep" } }), $defs: { deep: nested(LIMITS.nesting) } };
    expect(strictLimitsExceeded(schema as unknown as InputSchema)).toEqual([`${LIMITS.nesting + 1} levels of object nesting (OpenAI's limit: 10)`]);
  });
});

describe("generate warns for sets with an OpenAI extra", () => {
  const tool = { name: "bulk_update", description: "Update many fields.", inputSchema: object(fields(LIMITS.properties + 1)) };

  it.each([
    [["openai"], true],
    [["openai-agents"], true],
    [["anthropic"], false],
  ])("extras %j: warned %s", async (extras, warned) => {
    const project = new TempProject({
      "schemas/bulk-update.json": tool,
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", extras }] },
    });
    try {
      const result = await project.run("generate", "--no-cache", "--quiet");
      expect(result.code).toBe(0);
      const warning =
        "toolguard: warning: bulk_update: its strict schema is over OpenAI's limit for strict tools, so \"auto\" sends it non-strict and strict: true throws: 5001 object properties in all (OpenAI's limit: 5000)\n";
      expect(result.stderr).toBe(warned ? warning : "");
    } finally {
      project.remove();
    }
  });
});

describe("the adapters never send a tool over the limits as strict", () => {
  const over = { name: "bulk_update", inputSchema: object(fields(LIMITS.properties + 1)) as unknown as InputSchema };
  const under = { name: "small_update", inputSchema: object(fields(3)) as unknown as InputSchema };

  it('"auto" sends it with its own schema, not strict', () => {
    expect(chooseStrictness(over, "auto")).toEqual({ parameters: over.inputSchema, strict: false, absentNulls: undefined });
    expect(chooseStrictness(under, "auto").strict).toBe(true);
  });

  it("strict: true throws, naming the limit", () => {
    expect(() => chooseStrictness(over, true)).toThrow(
      /bulk_update cannot be sent with strict: true \(over OpenAI's size limit: 5001 object properties in all/,
    );
    expect(chooseStrictness(under, true).strict).toBe(true);
  });
});
