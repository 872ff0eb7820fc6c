// Fresh inputs, round 16 (probe15): shapes found by `toolguard rehearse` on vendors' own
// descriptions and published MCP servers that none of the messages was written against
// (docs/corpus.md, round 16).
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// NginxProxyManager's `certificate_id` (an integer, or `pattern: "^new$"` to ask for a new
// certificate) and `userID` (an integer, or `pattern: "^me$"`): the words of an enum written as a
// pattern. `"+5"` or Python's None is a string, so the string branch was singled out and its
// `must match pattern "^new$"` was all the envelope said; the literal repairer had nothing to send.
const proxyHost = tool("create_proxy_host", {
  type: "object",
  additionalProperties: false,
  required: ["user_id"],
  properties: {
    certificate_id: {
      anyOf: [
        { type: "integer", minimum: 0 },
        { type: "string", pattern: "^new$" },
      ],
    },
    user_id: {
      oneOf: [
        { type: "string", pattern: "^(?:me|self)$" },
        { type: "integer", minimum: 1 },
      ],
    },
    // Not literal: a text the pattern refuses may be meant for this branch.
    size: { anyOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+(px|em)$" }] },
  },
});

describe("a number or a word spelt as a pattern (NginxProxyManager's certificate_id, userID)", () => {
  it.each([
    ["+5", 5],
    ["5 items", 5],
    ["#5", 5],
  ])("%s is read as the number it carries", async (text, number) => {
    const { errors, repaired, after } = await roundTrip(proxyHost, { user_id: 2, certificate_id: text });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("/certificate_id");
    expect(errors[0]?.message).toMatch(/send 5 as a JSON number/);
    expect(repaired).toEqual({ user_id: 2, certificate_id: number });
    expect(after).toBeUndefined();
  });

  it("a group of words is read the same, and Python's None for an optional one is omitted", async () => {
    const grouped = await roundTrip(proxyHost, { user_id: "+2" });
    expect(grouped.repaired).toEqual({ user_id: 2 });
    const none = await roundTrip(proxyHost, { user_id: 2, certificate_id: "None" });
    expect(none.errors[0]?.message).toMatch(/omit it/);
    expect(none.repaired).toEqual({ user_id: 2 });
  });

  it("the words themselves are accepted, and a pattern that is not a list of words keeps its rule", async () => {
    expect((await roundTrip(proxyHost, { user_id: "me", certificate_id: "new" })).errors).toEqual([]);
    const { errors } = await roundTrip(proxyHost, { user_id: 2, size: "5 kg" });
    expect(errors[0]?.message).not.toMatch(/JSON number/);
  });
});

// Mistral's `handoffs`, `tags`, `mimetypes` (pydantic's `Optional[List[str]]`) and
// `encoded_input` (`Optional[NetworkEncodedInput]`, an object wrapping one text), as OpenAPI 3.1
// writes them: `anyOf: [S, {type: null}]`. A single value heard "it matches none of the allowed
// shapes (accepted types: null, array)", with nothing to send; `type: [array, null]` already
// heard the value in brackets.
const nullableUnions = tool("create_voice", {
  type: "object",
  additionalProperties: false,
  $defs: {
    Encoded: { type: "object", additionalProperties: false, required: ["b64payload"], properties: { b64payload: { type: "string" } } },
  },
  properties: {
    tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
    encoded_input: { anyOf: [{ $ref: "#/$defs/Encoded" }, { type: "null" }] },
    sizes: { oneOf: [{ type: "null" }, { type: "array", items: { type: "integer" } }] },
  },
});

describe("a nullable union of a list or a wrapper (Mistral's Optional fields)", () => {
  it("a single value for the list is sent in brackets", async () => {
    const { errors, repaired, after } = await roundTrip(nullableUnions, { tags: "news", sizes: 3 });
    expect(errors.map((error) => error.message).sort()).toEqual(
      [
        'got string "news"; it matches none of the allowed shapes (accepted types: null, array): send a JSON array: a single value goes in brackets, send ["news"]',
        "got integer 3; it matches none of the allowed shapes (accepted types: null, array): send a JSON array: a single value goes in brackets, send [3]",
      ].sort(),
    );
    expect(repaired).toEqual({ tags: ["news"], sizes: [3] });
    expect(after).toBeUndefined();
  });

  it("a text for the wrapper is sent wrapped; a value of another item type is not bracketed", async () => {
    const wrapped = await roundTrip(nullableUnions, { encoded_input: "abc" });
    expect(wrapped.repaired).toEqual({ encoded_input: { b64payload: "abc" } });
    expect(wrapped.after).toBeUndefined();
    const other = await roundTrip(nullableUnions, { sizes: "3 kg" });
    expect(other.errors[0]?.message).not.toMatch(/brackets/);
  });
});

// Mistral's chat messages: `oneOf` of System/User/Assistant/Tool messages, each with
// `role: {const: "system", default: "system"}` that no member requires (pydantic's
// `Literal["system"] = "system"`). A message holding `"role": "system"` and a misspelt `content`
// heard "each lacks a required field: add "content"" at the item, and the misspelt name stayed.
const messageMember = (role: string, extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: ["content"],
  properties: { role: { type: "string", const: role, default: role }, content: { type: "string" }, ...extra },
});
const chat = tool("chat", {
  type: "object",
  additionalProperties: false,
  $defs: {
    System: messageMember("system"),
    User: messageMember("user", { prefix: { type: "boolean" } }),
    Tool: messageMember("tool", { tool_call_id: { type: "string" } }),
  },
  properties: { messages: { type: "array", items: { oneOf: [{ $ref: "#/$defs/System" }, { $ref: "#/$defs/User" }, { $ref: "#/$defs/Tool" }] } } },
});

describe("an optional tag held with one member's value (Mistral's message role)", () => {
  it("names that member, whose errors are reported", async () => {
    const { errors, repaired, after } = await roundTrip(chat, { messages: [{ role: "system", cntent: "Be brief." }] });
    expect(errors.map((error) => error.path)).toEqual(["/messages/0/cntent", "/messages/0/content"]);
    expect(repaired).toEqual({ messages: [{ role: "system", content: "Be brief." }] });
    expect(after).toBeUndefined();
  });

  it("beside another member's own field, the tag is the mistake: that member's tag is offered", async () => {
    const { errors, repaired } = await roundTrip(chat, { messages: [{ role: "system", content: "x", tool_call_id: "t1" }] });
    expect(errors.map((error) => error.path)).toEqual(["/messages/0/role"]);
    expect(repaired).toEqual({ messages: [{ role: "tool", content: "x", tool_call_id: "t1" }] });
  });
});

// Hatchet's `running_filter` (`ALL`, `EVICTED`, `ON_WORKER`) cut to `ON_`: its normal form, `on`,
// is shorter than a prefix is read from, so `ON_` heard only the list.
const runs = tool("list_runs", {
  type: "object",
  additionalProperties: false,
  properties: { running_filter: { type: "string", enum: ["ALL", "EVICTED", "ON_WORKER"] }, order: { type: "string", enum: ["ON_TIME", "ON_WORKER", "LATE"] } },
});

describe("a listed value cut at its separator (Hatchet's ON_WORKER)", () => {
  it("is the one value it starts", async () => {
    const { errors, repaired } = await roundTrip(runs, { running_filter: "ON_" });
    expect(errors[0]?.message).toMatch(/did you mean "ON_WORKER"\?/);
    expect(repaired).toEqual({ running_filter: "ON_WORKER" });
  });

  it("two values it starts offer neither", async () => {
    const { errors } = await roundTrip(runs, { order: "ON_" });
    expect(errors[0]?.message).not.toMatch(/did you mean/);
  });
});

// Mistral's judge `output` (a `oneOf` of the classification and regression outputs, told apart
// by their fields) and TGI's `/invocations` body (a `oneOf` of three requests): no branch is
// singled out by the JSON type, so the object written as JSON text had no types to be read
// against, and heard only "it matches none of the allowed shapes".
const judge = tool("create_judge", {
  type: "object",
  additionalProperties: false,
  properties: {
    output: {
      oneOf: [
        { type: "object", additionalProperties: false, required: ["options"], properties: { type: { const: "CLASSIFICATION" }, options: { type: "array" } } },
        {
          type: "object",
          additionalProperties: false,
          required: ["min", "max"],
          properties: { type: { const: "REGRESSION" }, min: { type: "number" }, max: { type: "number" } },
        },
      ],
    },
  },
});

describe("a union of objects sent as JSON text (Mistral's judge output)", () => {
  it("is the object itself", async () => {
    const text = JSON.stringify({ options: [{ value: "a" }] });
    const { errors, repaired, after } = await roundTrip(judge, { output: text });
    expect(errors[0]?.message).toMatch(/accepted types: object\): this is JSON text of an object; send the value itself/);
    expect(repaired).toEqual({ output: { options: [{ value: "a" }] } });
    expect(after).toBeUndefined();
  });

  it("a plain text keeps the union's summary", async () => {
    const { errors } = await roundTrip(judge, { output: "good" });
    expect(errors[0]?.message).toBe('got string "good"; it matches none of the allowed shapes');
  });
});
