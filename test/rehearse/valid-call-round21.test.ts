// The valid call rehearse starts every mistake from, on idioms of round 21's fresh descriptions
// (docs/corpus.md, "Fresh inputs, round 21: descriptions") that left tools with no case at all
// ("no valid call could be built"): 55 of Oxide's 312 tools, 6 of Iceberg's 35, 2 of a tsoa
// description's 13. Each schema is cut from the input named.
import { afterAll, describe, expect, it } from "vitest";
import { loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";
import { validCallOf } from "../../generator/rehearse/rehearse.ts";
import { tool } from "../explain-corpus/round-trip.ts";

afterAll(removeLoadedModules);

async function validCall(schema: Schema): Promise<Record<string, unknown> | undefined> {
  const loaded = await loadTool(tool("t", schema));
  return validCallOf(loaded, schema, seeded(1)) as Record<string, unknown> | undefined;
}

describe("rehearse's valid call on round 21's idioms", () => {
  // oxidecomputer/oxide.rs e1755313 (MPL-2.0), `oxide.json` (dropshot, OpenAPI 3.0.3): a `$ref`
  // with a description beside it is written `allOf: [{$ref}]`, and an id or a name is `NameOrId`,
  // a oneOf of two `allOf`-wrapped texts. The parts' fields were merged, but not their enum,
  // format or branches: the value was made of no type at all, or a plain text no branch takes.
  it("reads an allOf that composes no object as its part: an enum, a union of enums, a union of texts", async () => {
    const call = await validCall({
      type: "object",
      required: ["mode", "switch_slot", "instance"],
      properties: {
        mode: { description: "Select either single-hop or multi-hop", allOf: [{ $ref: "#/$defs/BfdMode" }] },
        switch_slot: { description: "The slot of the switch", allOf: [{ $ref: "#/$defs/SwitchSlot" }] },
        instance: { description: "Name or ID of the instance", allOf: [{ $ref: "#/$defs/NameOrId" }] },
      },
      $defs: {
        BfdMode: { type: "string", enum: ["single_hop", "multi_hop"] },
        SwitchSlot: {
          oneOf: [
            { type: "string", enum: ["switch0"] },
            { type: "string", enum: ["switch1"] },
          ],
        },
        NameOrId: {
          oneOf: [
            { title: "id", allOf: [{ type: "string", format: "uuid" }] },
            { title: "name", allOf: [{ $ref: "#/$defs/Name" }] },
          ],
        },
        Name: { type: "string", pattern: "^[a-z]([a-zA-Z0-9-]*[a-zA-Z0-9]+)?$", minLength: 1, maxLength: 63 },
      },
    });
    expect(call).toBeDefined();
    expect(["single_hop", "multi_hop"]).toContain(call?.mode);
    expect(["switch0", "switch1"]).toContain(call?.switch_slot);
    expect(call?.instance).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  // apache/iceberg 7f879b1136 (Apache-2.0), `open-api/rest-catalog-open-api.yaml` (OpenAPI 3.1.1).
  it("keeps a member's own field over its base's, and a union's fields beside its branches", async () => {
    const call = await validCall({
      type: "object",
      required: ["updates", "report"],
      properties: {
        // `AssignUUIDUpdate`: `allOf: [{$ref: BaseUpdate}]` whose `action` is any text, beside its own `action: {const}`.
        updates: { type: "array", items: { anyOf: [{ $ref: "#/$defs/AssignUUIDUpdate" }] } },
        // `ReportMetricsRequest`: `anyOf` of the reports and `required: [report-type]` beside them.
        report: { anyOf: [{ $ref: "#/$defs/CommitReport" }], required: ["report-type"], properties: { "report-type": { type: "string" } } },
      },
      $defs: {
        BaseUpdate: { type: "object", required: ["action"], properties: { action: { type: "string" } } },
        AssignUUIDUpdate: {
          allOf: [{ $ref: "#/$defs/BaseUpdate" }],
          required: ["action", "uuid"],
          properties: { action: { type: "string", const: "assign-uuid" }, uuid: { type: "string" } },
        },
        CommitReport: { type: "object", required: ["table-name"], properties: { "table-name": { type: "string" } } },
      },
    });
    const { updates, report } = call as { updates: Record<string, unknown>[]; report: Record<string, unknown> };
    expect(updates[0]?.action).toBe("assign-uuid");
    expect(typeof report["report-type"]).toBe("string");
  });

  it("tries another branch of a oneOf whose first branch the next also takes", async () => {
    // Iceberg's `Type`: `VariantType` is the text "variant", which `PrimitiveType`, any text, takes too.
    const call = await validCall({
      type: "object",
      required: ["type"],
      properties: {
        type: {
          oneOf: [
            { type: "string", const: "variant" },
            { type: "string" },
            { type: "object", required: ["fields"], properties: { fields: { type: "array" } } },
          ],
        },
      },
    });
    expect(call).toBeDefined();
    expect(call?.type).not.toBe("variant");
  });

  // The shape of a tsoa-generated description (CloudNStoyan/tsoa-project-demo bcf90b0, which states
  // no licence: nothing is cut from it): a required `format: date` whose example is a date-time,
  // which made every try fail the same way.
  it("passes over a documented example its own format refuses", async () => {
    const call = await validCall({
      type: "object",
      required: ["addedDate"],
      properties: { addedDate: { type: "string", format: "date", example: "2024-09-07T21:00:00.000Z" } },
    });
    expect(call?.addedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
