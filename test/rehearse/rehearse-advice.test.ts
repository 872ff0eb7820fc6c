// The schema change `toolguard rehearse` suggests for a weak message: given only when the schema
// lacks what it names, and nothing when the schema already has it.
import { describe, expect, it } from "vitest";
import { adviceFor, schemaAt } from "../../generator/rehearse/advice.ts";
import type { CorpusCase, Expected } from "../../generator/rehearse/mistake-case.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";

const caseOf = (expect: Expected): CorpusCase => ({ id: "t", source: "s", tool: "t", mistake: "m", args: {}, expect });

const SCHEMA: Schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    order: { type: "string", enum: ["asc", "desc"] },
    described: { type: "string", enum: ["asc", "desc"], description: "asc: oldest first; desc: newest first" },
    day: { type: "string", format: "date" },
    dayWithExample: { type: "string", format: "date", examples: ["2026-01-31"] },
    note: { type: "string" },
    open: { type: "object", properties: { name: { type: "string" } } },
    shut: { $ref: "#/$defs/shut" },
    shape: {
      oneOf: [
        { type: "object", properties: { r: { type: "number" } } },
        { type: "object", properties: { side: { type: "number" } } },
      ],
    },
    tagged: {
      oneOf: [
        { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } } },
        { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } } },
      ],
    },
    list: { type: "array", items: { type: "object", properties: { when: { type: "string", format: "date-time" } } } },
  },
  $defs: { shut: { type: "object", additionalProperties: false, properties: { name: { type: "string" } } } },
};

describe("adviceFor", () => {
  it("an enum without a description: describe its values; with one: nothing", () => {
    expect(adviceFor(caseOf({ op: "set", path: "/order", value: "asc" }), SCHEMA)).toMatch(/^describe \/order and what each of its values means/);
    expect(adviceFor(caseOf({ op: "set", path: "/described", value: "asc" }), SCHEMA)).toBeUndefined();
  });

  it("a format with no example: give one; with an example, or a free text: nothing", () => {
    expect(adviceFor(caseOf({ op: "set", path: "/day", value: "2026-01-31" }), SCHEMA)).toMatch(/^give \/day an example/);
    expect(adviceFor(caseOf({ op: "set", path: "/dayWithExample", value: "2026-01-31" }), SCHEMA)).toBeUndefined();
    expect(adviceFor(caseOf({ op: "set", path: "/note", value: "x" }), SCHEMA)).toBeUndefined();
    // Through an array's items.
    expect(adviceFor(caseOf({ op: "set", path: "/list/0/when", value: "x" }), SCHEMA)).toMatch(/^give \/list\/0\/when an example/);
  });

  it("a missing fact with no example: give one, so the message can say what to ask for", () => {
    expect(adviceFor(caseOf({ op: "ask", path: "/note" }), SCHEMA)).toMatch(/^give \/note an example/);
  });

  it("a value that could not be placed in an open object: close it; in a closed one: nothing", () => {
    expect(adviceFor(caseOf({ op: "move", from: "/name", to: "/open/name" }), SCHEMA)).toMatch(/^close the object at \/open \(additionalProperties: false\)/);
    expect(adviceFor(caseOf({ op: "move", from: "/name", to: "/shut/name" }), SCHEMA)).toBeUndefined();
    expect(adviceFor(caseOf({ op: "rename", path: "/open/nmae", to: "name" }), SCHEMA)).toMatch(/^close the object at \/open/);
  });

  it("a union without a tag: add one; a tagged union: nothing", () => {
    expect(adviceFor(caseOf({ op: "set", path: "/shape/r", value: 1 }), SCHEMA)).toMatch(
      /^give each member of the union at \/shape a property with a const value/,
    );
    expect(adviceFor(caseOf({ op: "set", path: "/tagged/kind", value: "circle" }), SCHEMA)).toBeUndefined();
  });

  it("no advice for a text that is not JSON, a bound, or a null sent for an optional field", () => {
    expect(adviceFor(caseOf({ op: "text", fix: "bare" }), SCHEMA)).toBeUndefined();
    expect(adviceFor(caseOf({ op: "mention", path: "/note", text: "<= 2" }), SCHEMA)).toBeUndefined();
    expect(adviceFor(caseOf({ op: "remove", path: "/day" }), SCHEMA)).toBeUndefined();
  });
});

describe("schemaAt", () => {
  it("follows properties, items and $refs, and stops at a union", () => {
    expect(schemaAt(SCHEMA, "/shut/name")).toEqual({ kind: "schema", schema: { type: "string" }, at: "/shut/name" });
    expect(schemaAt(SCHEMA, "/list/3/when")?.schema).toEqual({ type: "string", format: "date-time" });
    expect(schemaAt(SCHEMA, "/shape/r")).toMatchObject({ kind: "union", at: "/shape" });
    expect(schemaAt(SCHEMA, "/nowhere")).toBeUndefined();
  });
});
