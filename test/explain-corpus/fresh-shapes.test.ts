// The shapes behind the classes that fell under 90% on descriptions nobody here had written
// (issue 31, `toolguard rehearse` on vendors' own repositories): each as a small schema of that
// shape, the mistake, and the fix the envelope must carry, scored as the corpus scores a case
// (an error at the pointer carries the fix, and the literal repairer's one round passes). Each
// message is derived from the schema and the value sent, never from a vendor's name.
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { loadTool } from "../../generator/rehearse/load-tool.ts";
import type { CorpusCase, Expected } from "../../generator/rehearse/mistake-case.ts";
import { carries } from "../../generator/rehearse/mistakes/scoring.ts";
import { repairedBy } from "../../generator/rehearse/rehearse.ts";

interface Shape {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly args?: unknown;
  readonly text?: string;
  readonly expect: Expected;
  /** The message at the case's pointer must match this. */
  readonly says: RegExp;
}

const set = (path: string, value: unknown): Expected => ({ op: "set", path, value });
const snowflake = { type: "string", pattern: "^(0|[1-9][0-9]*)$" };

/** A set too large for the spelling table (more than 64 values), as currency codes are. */
const CODES = ["COP", "EUR", "USD", ...Array.from({ length: 80 }, (_, i) => `Q${String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26))}`)];

const SHAPES: readonly Shape[] = [
  {
    // Weaviate's `valueBoolean: [boolean, null]`, a place the coercion plan does not reach (a recursive filter).
    name: "a boolean written as Python's word, inside a recursive filter",
    schema: {
      type: "object",
      properties: { where: { $ref: "#/$defs/Where" } },
      $defs: {
        Where: {
          type: "object",
          properties: { valueBoolean: { type: ["boolean", "null"] }, operands: { type: "array", items: { $ref: "#/$defs/Where" } } },
        },
      },
    },
    args: { where: { operands: [{ valueBoolean: "False" }] } },
    expect: set("/where/operands/0/valueBoolean", false),
    says: /send false\b/,
  },
  {
    name: "Python's True, False and None in the JSON text",
    schema: { type: "object", properties: { dryRun: { type: "boolean" }, parent: { type: ["string", "null"] }, note: { type: "string" } } },
    text: '{"dryRun": True, "parent": None, "note": "True story"}',
    expect: { op: "text", fix: "literals" },
    says: /Python's True.*JSON writes its literals in lower case/,
  },
  {
    // Box's `direction: [ASC, DESC]` and HubSpot's `[ASCENDING, DESCENDING]`: codes in capitals, the word in lower case.
    name: "a synonym of an upper-case value",
    schema: { type: "object", properties: { direction: { type: "string", enum: ["ASC", "DESC"] } } },
    args: { direction: "descending" },
    expect: set("/direction", "DESC"),
    says: /did you mean "DESC"\?/,
  },
  {
    name: "a synonym of an upper-case word",
    schema: { type: "object", properties: { direction: { type: "string", enum: ["ASCENDING", "DESCENDING"] } } },
    args: { direction: "decreasing" },
    expect: set("/direction", "DESCENDING"),
    says: /did you mean "DESCENDING"\?/,
  },
  {
    name: "an upper-case code the text abbreviates to",
    schema: { type: "object", properties: { order: { type: "string", enum: ["ASC", "DESC"] } } },
    args: { order: "ascending" },
    expect: set("/order", "ASC"),
    says: /did you mean "ASC"\?/,
  },
  {
    // OpenFGA: `tuple_key: {$ref: TupleKey}` in an open object, TupleKey requiring `object`.
    name: "a required field of a $ref'd component sent one level too high",
    schema: {
      type: "object",
      properties: { body: { type: "object", properties: { tuple_key: { $ref: "#/$defs/TupleKey" }, context: { type: "object" } } } },
      $defs: { TupleKey: { type: "object", required: ["object", "relation"], properties: { object: { type: "string" }, relation: { type: "string" } } } },
    },
    args: { body: { tuple_key: { relation: "reader" }, object: "document:budget" } },
    expect: { op: "move", from: "/body/object", to: "/body/tuple_key/object" },
    says: /move \/body\/object here/,
  },
  {
    // Discord: one id type, required as `webhook_id`, optional as `thread_id`.
    name: "null for an optional field whose definition is required elsewhere",
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["webhook_id"],
      properties: { webhook_id: { $ref: "#/$defs/Snowflake" }, thread_id: { $ref: "#/$defs/Snowflake" } },
      $defs: { Snowflake: snowflake },
    },
    args: { webhook_id: "1", thread_id: null },
    expect: { op: "remove", path: "/thread_id" },
    says: /optional: omit it/,
  },
  {
    name: "Python's None for an optional, nullable field",
    schema: { type: "object", properties: { limit: { type: ["integer", "null"] } } },
    args: { limit: "None" },
    expect: { op: "remove", path: "/limit" },
    says: /send null, or as this field is optional, omit it/,
  },
  {
    // Discord's 3.1 `description: {type: [object, null], required: [default]}`.
    name: "plain text where a nullable wrapper object is wanted",
    schema: {
      type: "object",
      properties: {
        description: {
          type: ["object", "null"],
          required: ["default"],
          properties: { default: { type: "string" }, localizations: { type: ["object", "null"] } },
        },
      },
    },
    args: { description: "A bot" },
    expect: set("/description", { default: "A bot" }),
    says: /send \{"default":"A bot"\}/,
  },
  {
    name: "one value where a nullable list is wanted",
    schema: { type: "object", properties: { domains: { type: ["array", "null"], items: { type: "string" } } } },
    args: { domains: "example.com" },
    expect: set("/domains", ["example.com"]),
    says: /send \["example.com"\]/,
  },
  {
    // Intercom's `reactions: {type: array, items: {type: string, nullable: true}}`.
    name: "one value where a list of nullable items is wanted",
    schema: { type: "object", properties: { reactions: { type: "array", items: { type: ["string", "null"] } } } },
    args: { reactions: "👍" },
    expect: set("/reactions", ["👍"]),
    says: /send \["👍"\]/,
  },
  {
    // SCIM's PatchOp schema URN: an enum of one long value.
    name: "a misspelt value of a one-value enum",
    schema: { type: "object", properties: { schemas: { type: "array", items: { type: "string", enum: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"] } } } },
    args: { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOps"] },
    expect: set("/schemas/0", "urn:ietf:params:scim:api:messages:2.0:PatchOp"),
    says: /must be exactly "urn:ietf:params:scim:api:messages:2\.0:PatchOp"/,
  },
  {
    // Discord's `author_type`: a union of two enums whose values share a normal form (`user`, `-user`).
    name: "a value of a union of enums in another case",
    schema: {
      type: "object",
      properties: {
        author_type: {
          type: "array",
          items: {
            oneOf: [
              { type: "string", enum: ["user", "bot"] },
              { type: "string", enum: ["-user", "-bot"] },
            ],
          },
        },
      },
    },
    args: { author_type: ["USER"] },
    expect: set("/author_type/0", "user"),
    says: /did you mean "user"\?/,
  },
  {
    // Lago's `currency`: ISO 4217's codes, 150 and more, a set no message lists.
    name: "a misspelt value of a set too large to list",
    schema: { type: "object", properties: { currency: { type: ["string", "null"], enum: [null, ...CODES] } } },
    args: { currency: "COPs" },
    expect: set("/currency", "COP"),
    says: /did you mean "COP"\?/,
  },
  {
    // Mapbox's `units: [kilometers, miles, meters, feet]`: `met` is two edits from `feet`.
    name: "an abbreviation that is also two edits from another value",
    schema: { type: "object", properties: { units: { type: "string", enum: ["kilometers", "miles", "meters", "feet"] } } },
    args: { units: "met" },
    expect: set("/units", "meters"),
    says: /did you mean "meters"\?/,
  },
  {
    // Typesense's `{modelId, body}`: `mod` is two edits from `body`, which the call sends already.
    name: "a field name cut short that is also two edits from a sent name",
    schema: { type: "object", additionalProperties: false, properties: { modelId: { type: "string" }, body: { type: "object" } } },
    args: { mod: "m-1", body: {} },
    expect: { op: "rename", path: "/mod", to: "modelId" },
    says: /did you mean "modelId"\? Rename it/,
  },
  {
    // OpenFGA's `authorization_model_id`, Clerk's `token`: a secret-named text sent as a list of
    // one. The item is never quoted back, so the message names it instead of sending it.
    name: "a list of one sent to a secret-named field",
    schema: { type: "object", properties: { store: { type: "string" }, api_token: { type: "string" } } },
    args: { store: "main", api_token: ["tok-1"] },
    expect: set("/api_token", "tok-1"),
    says: /send its only item alone, without the brackets/,
  },
  {
    name: "one value sent to a secret-named list",
    schema: { type: "object", properties: { secret_list: { type: "array", items: { type: "string" } } } },
    args: { secret_list: "key-1" },
    expect: set("/secret_list", ["key-1"]),
    says: /send the same string inside \[ and \]/,
  },
  {
    // Ory's `credentials`: an object under a secret name, sent as JSON text of itself.
    name: "a secret-named object sent as JSON text",
    schema: { type: "object", properties: { credentials: { type: "object", properties: { password: { type: "string" } } } } },
    args: { credentials: '{"password":"hunter2"}' },
    expect: set("/credentials", { password: "hunter2" }),
    says: /JSON text of an object; send the value itself, not a string of it/,
  },
  {
    // Discord's `embeds`: a long object sent as JSON text; the message cannot repeat it whole.
    name: "a long object sent as JSON text",
    schema: { type: "object", properties: { embed: { type: "object", properties: { title: { type: "string" }, description: { type: "string" } } } } },
    args: { embed: JSON.stringify({ title: "Release notes", description: "x".repeat(500) }) },
    expect: set("/embed", { title: "Release notes", description: "x".repeat(500) }),
    says: /send the value itself, not a string of it/,
  },
];

/** Readings that must not be offered: the schema and the value do not determine them. */
const UNDETERMINED: readonly { name: string; schema: Record<string, unknown>; args: unknown; never: RegExp }[] = [
  {
    name: "a two-letter code for a word of its group",
    schema: { type: "object", properties: { c: { type: "string", enum: ["NO", "SE", "DK"] } } },
    args: { c: "off" },
    never: /did you mean/,
  },
  {
    name: "a case-folded text two values share",
    schema: { type: "object", properties: { t: { type: "string", enum: ["user", "User", "-user"] } } },
    args: { t: "USER" },
    never: /did you mean/,
  },
  {
    name: "null under a name its definition is required by",
    schema: {
      type: "object",
      required: ["id"],
      properties: { id: { $ref: "#/$defs/Snowflake" }, other: { $ref: "#/$defs/Snowflake" } },
      $defs: { Snowflake: snowflake },
    },
    args: { id: null },
    never: /omit it/,
  },
];

function description(name: string, schema: Record<string, unknown>): ToolDescription {
  return {
    name,
    description: "",
    inputSchema: schema as ToolDescription["inputSchema"],
    dialect: "2020-12",
    references: {},
    source: { file: "shapes", pointer: "" },
  };
}

describe("the fresh-input shapes (issue 31)", () => {
  it.each(SHAPES.map((shape) => [shape.name, shape] as const))("%s: carries the fix and repairs in one round", async (_name, shape) => {
    const tool = await loadTool(description(shape.name.replace(/\W+/g, "_"), shape.schema));
    const entry: CorpusCase = {
      id: shape.name,
      source: "shapes",
      tool: shape.name,
      mistake: shape.name,
      // A text's repair is judged on the text alone.
      args: shape.args ?? {},
      ...(shape.text === undefined ? {} : { text: shape.text }),
      expect: shape.expect,
    };
    const errors = shape.text === undefined ? await tool.envelope(shape.args) : await tool.envelopeOfText(shape.text);
    expect(errors, "the mistake is refused").toBeDefined();
    // A text fix is said wherever the text broke; any other at the case's pointer.
    const at = shape.expect.op === "move" ? [shape.expect.from, shape.expect.to] : "path" in shape.expect ? [shape.expect.path] : undefined;
    const said = errors?.filter((error) => at === undefined || at.includes(error.path)).map((error) => error.message);
    expect(said?.join("\n")).toMatch(shape.says);
    expect(carries(shape.expect, errors ?? [], shape.args)).toBe(true);
    expect(await repairedBy(entry, tool, errors ?? [])).toBe(true);
  });

  it.each(UNDETERMINED.map((shape) => [shape.name, shape] as const))("%s: offers nothing", async (_name, shape) => {
    const tool = await loadTool(description(shape.name.replace(/\W+/g, "_"), shape.schema));
    const errors = await tool.envelope(shape.args);
    expect(errors).toBeDefined();
    expect(errors?.map((error) => error.message).join("\n")).not.toMatch(shape.never);
  });
});
