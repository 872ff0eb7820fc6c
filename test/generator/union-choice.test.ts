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

describe("a member whose fields lie behind its $ref (a translated discriminator)", () => {
  // The shape toolguard's discriminator translation makes of OpenAI's container skills: each
  // member pins its tag beside a `$ref` whose target declares the member's own fields (and, as
  // OpenAI's do, its tag again).
  const schema = {
    $defs: {
      SkillReference: {
        type: "object",
        properties: { type: { type: "string", enum: ["skill_reference"] }, skill_id: { type: "string" }, version: { type: "string" } },
        required: ["type", "skill_id"],
      },
      InlineSkill: {
        type: "object",
        properties: { type: { type: "string", enum: ["inline"] }, name: { type: "string" }, source: { type: "string" } },
        required: ["type", "name", "source"],
      },
    },
    type: "object",
    properties: {
      skill: {
        oneOf: [
          { $ref: "#/$defs/SkillReference", type: "object", properties: { type: { enum: ["skill_reference"] } }, required: ["type"] },
          { $ref: "#/$defs/InlineSkill", type: "object", properties: { type: { enum: ["inline"] } }, required: ["type"] },
        ],
      },
    },
  };

  it("names the one member the fields sent belong to when the tag is left out", async () => {
    // Before: the branch beside the $ref declared only `type`, so no field tied the call to a
    // member: `... which says what kind of object this is: one of ["skill_reference", "inline"]`.
    // Now that member's errors are the ones told, and its tag takes one value.
    expect(await explain(schema, { skill: { skill_id: "s1" } })).toEqual([
      { path: "/skill/type", rule: "required", message: 'missing required field "type"; send "skill_reference"' },
    ]);
  });

  it("offers the tag the fields name against a wrong one, with what the named member requires", async () => {
    expect(await explain(schema, { skill: { type: "inline", skill_id: "s1" } })).toEqual([
      {
        path: "/skill/type",
        rule: "enum",
        message:
          'got string "inline"; the other fields are those of "skill_reference", not of "inline": send "skill_reference" if that is the kind you meant, else keep "inline" and add the fields it requires ("name", "source")',
      },
    ]);
  });

  it("offers the member the fields fit against a tag naming no member (another union's)", async () => {
    // Before: only the list of kinds, though `skill_id` is declared by one member alone.
    expect(await explain(schema, { skill: { type: "stored_completions", skill_id: "s1" } })).toEqual([
      {
        path: "/skill/type",
        rule: "enum",
        message:
          'got string "stored_completions"; "type" says what kind of object this is and must be one of ["skill_reference", "inline"]; the other fields are those of "skill_reference": send "skill_reference"',
      },
    ]);
  });

  it("tells a near miss of another kind as a near miss, not the kind the fields fit", async () => {
    const [error] = await explain(schema, { skill: { type: "inlin", skill_id: "s1" } });
    expect(error?.message).toBe(
      'got string "inlin"; "type" says what kind of object this is and must be one of ["skill_reference", "inline"] — did you mean "inline"?',
    );
  });

  it("still lists every kind when the fields sent fit more than one member", async () => {
    const [error] = await explain(schema, { skill: {} });
    expect(error?.message).toBe('missing required field "type", which says what kind of object this is: one of ["skill_reference", "inline"]');
  });
});

describe("a folded oneOf inside an anyOf finds its hints", () => {
  // OpenAI's realtime turn detection: `anyOf: [oneOf: [server VAD, semantic VAD], null]`. The
  // validator's `oneOf` is folded to `anyOf` (its members are disjoint), so an error in a member
  // names `anyOf/0/anyOf/0`, where the table as written has `anyOf/0/oneOf/0`.
  const schema = {
    type: "object",
    properties: {
      turn_detection: {
        anyOf: [
          {
            oneOf: [
              {
                type: "object",
                required: ["type"],
                properties: { type: { type: "string", const: "server_vad" }, threshold: { type: "number" }, create_response: { type: "boolean" } },
              },
              {
                type: "object",
                required: ["type"],
                properties: { type: { type: "string", const: "semantic_vad" }, eagerness: { type: "string" }, create_response: { type: "boolean" } },
              },
            ],
          },
          { type: "null" },
        ],
      },
    },
  };

  it("sends the member's one tag value where its fields single it out", async () => {
    // Before: `missing required field "type"; if you do not know its value, ask the user`.
    expect(await explain(schema, { turn_detection: { threshold: 0.5 } })).toEqual([
      { path: "/turn_detection/type", rule: "required", message: 'missing required field "type"; send "server_vad"' },
    ]);
  });
});
