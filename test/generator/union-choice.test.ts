// Issue 17: a union's real rule is told, not hidden behind "matches none of the allowed shapes".
// The branch the value's JSON type selects (OpenAI's nullable `temperature`), or the only branch
// its property names fit (a member sent without its discriminator, an object union like
// DigitalOcean's single-or-many droplets), is the one explained.
import { describe, expect, it } from "vitest";
import { buildHintTable } from "../../generator/emit/error-hints.ts";
import { explainSchemaErrors } from "../../templates/runtime/explain/explain.ts";
import type { AjvError } from "../../templates/runtime/contract/tool-spec.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";

async function explain(schema: Record<string, unknown>, value: unknown): Promise<{ path: string; rule: string; message: string }[]> {
  const { validate } = await emitAndLoad(schema);
  expect(validate(value)).toBe(false);
  return explainSchemaErrors((validate.errors ?? []) as readonly AjvError[], value, buildHintTable(toolOf(schema)), 20);
}

describe("the branch a value's type selects", () => {
  // The shape of OpenAI's chat completion `temperature`.
  const schema = { type: "object", properties: { temperature: { anyOf: [{ type: "number", minimum: 0, maximum: 2 }, { type: "null" }] } } };

  it("tells the number branch's maximum for a number out of range", async () => {
    expect(await explain(schema, { temperature: 3 })).toEqual([{ path: "/temperature", rule: "maximum", message: "got integer 3; must be <= 2" }]);
  });

  it("still summarises a value no branch's type accepts", async () => {
    const [error] = await explain(schema, { temperature: "hot" });
    expect(error).toMatchObject({ path: "/temperature", rule: "anyOf" });
    expect(error?.message).toContain("accepted types: number, null");
  });
});

describe("the branch a value's property names fit", () => {
  // Single-or-many, as DigitalOcean's droplets_create: the fields name the single form.
  const schema = {
    type: "object",
    properties: {
      droplet: {
        oneOf: [
          {
            type: "object",
            properties: { name: { type: "string", description: "The droplet's name." }, size: { type: "string" } },
            required: ["name", "size"],
          },
          { type: "object", properties: { names: { type: "array", items: { type: "string" } }, size: { type: "string" } }, required: ["names", "size"] },
        ],
      },
    },
  };

  it("explains the single form when a field only it has is sent", async () => {
    const errors = await explain(schema, { droplet: { name: 7, size: "s-1vcpu-1gb" } });
    expect(errors).toEqual([expect.objectContaining({ path: "/droplet/name", rule: "type" })]);
  });

  it("says what each form lacks when the fields fit both (the name is never left unsaid)", async () => {
    const errors = await explain(schema, { droplet: { size: "s-1vcpu-1gb" } });
    expect(errors).toEqual([
      {
        path: "/droplet",
        rule: "oneOf",
        message:
          'the object fits none of the allowed shapes; each lacks a required field: add "name", or add "names". If you do not know the value, ask the user instead of guessing',
      },
    ]);
  });
});
