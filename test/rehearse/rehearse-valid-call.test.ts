// The valid call rehearse starts every mistake from, on two idioms of real OpenAPI documents that
// left tools with no case at all ("no valid call could be built"): Box's 2025.0 description writes
// `example: 123` on a string path parameter, and `allOf: [{$ref: Content}, {description}]` where
// Content is a oneOf of objects. Either made every try fail the same way. And patterned ids
// (Twilio's Sids, Discord's snowflakes) left 195 of Twilio's 197 tools and 220 of Discord's 242
// without a case: a string made without its pattern never passes.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { instanceOf } from "../../generator/rehearse/mistakes/instance.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });

/** The first of a few seeded tries the schema accepts, as rehearse's validCallOf takes it. */
function validCall(schema: Schema): unknown {
  const validate = ajv.compile(schema);
  const random = seeded(1);
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = instanceOf(schema, schema, random);
    if (validate(candidate)) return candidate;
  }
  return undefined;
}

describe("rehearse's valid call", () => {
  it("passes over a documented example of another type than its schema's", () => {
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      required: ["job_id", "count"],
      properties: { job_id: { type: "string", example: 123 }, count: { type: "integer", example: 2.5 }, label: { type: "string", example: "kept" } },
    };
    const call = validCall(schema) as Record<string, unknown>;
    expect(call).toBeDefined();
    expect(typeof call.job_id).toBe("string");
    expect(Number.isInteger(call.count)).toBe(true);
    // An example of the right type is still the value used.
    expect(instanceOf(schema.properties && (schema.properties as Schema).label, schema, seeded(1))).toBe("kept");
  });

  it("fills an allOf part that is a union of objects with one branch's fields", () => {
    const schema: Schema = {
      type: "object",
      required: ["name", "content"],
      properties: {
        name: { type: "string" },
        content: { allOf: [{ $ref: "#/$defs/Content" }, { description: "What the list holds." }] },
      },
      $defs: {
        Content: { type: "object", oneOf: [{ $ref: "#/$defs/Country" }, { $ref: "#/$defs/Domain" }] },
        Country: {
          type: "object",
          required: ["type", "country_codes"],
          properties: { type: { type: "string", enum: ["country"] }, country_codes: { type: "array", items: { type: "string" } } },
        },
        Domain: {
          type: "object",
          required: ["type", "domains"],
          properties: { type: { type: "string", enum: ["domain"] }, domains: { type: "array", items: { type: "string" } } },
        },
      },
    };
    const call = validCall(schema) as { content?: Record<string, unknown> };
    expect(call).toBeDefined();
    expect(call.content?.type).toBe("country");
    expect(Array.isArray(call.content?.country_codes)).toBe(true);
  });

  it("builds patterned ids their pattern accepts, and falls back where no string is built", () => {
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      required: ["AccountSid", "guild_id", "phone", "code"],
      properties: {
        AccountSid: { type: "string", pattern: "^AC[0-9a-fA-F]{32}$", minLength: 34, maxLength: 34 },
        guild_id: { $ref: "#/$defs/Snowflake" },
        phone: { type: "string", pattern: "^\\+?[1-9]\\d{1,14}$" },
        code: { type: "string", pattern: "^(?:[A-Z]{2}|[a-z]{3})-[^\\s@]+$" },
        // A pattern no string fits: the field is optional, so the call still passes without it.
        note: { type: "string", pattern: "^(?!a)a$" },
      },
      $defs: { Snowflake: { type: "string", pattern: "^(0|[1-9][0-9]*)$" } },
    };
    const call = validCall(schema) as Record<string, string>;
    expect(call).toBeDefined();
    expect(call.AccountSid).toMatch(/^AC[0-9a-fA-F]{32}$/);
    expect(call.guild_id).toMatch(/^(0|[1-9][0-9]*)$/);
    expect(call.phone).toMatch(/^\+?[1-9]\d{1,14}$/);
  });
});
