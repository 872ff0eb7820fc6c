// Fresh inputs, round 19 (probe19b): shapes found by `toolguard rehearse` on published MCP servers
// and agent tool sets that none of the messages was written against (docs/corpus.md, "Fresh
// inputs, round 19: MCP servers"). Each schema is cut from the input named, with its licence.
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// tau-bench's retail `cancel_pending_order` (sierra-research/tau-bench 59a200c, MIT), an OpenAI
// function tool: `reason` is `no longer needed` or `ordered by mistake`. Cut at its first space,
// `no ` has the normal form `no`, shorter than a prefix is read from, so it heard only the list.
const cancel = tool("cancel_pending_order", {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "reason"],
  properties: {
    order_id: { type: "string" },
    reason: { type: "string", enum: ["no longer needed", "ordered by mistake"] },
    other: { type: "string", enum: ["no longer needed", "not sure"] },
  },
});

describe("a listed value cut at its first space (tau-bench's cancellation reason)", () => {
  it("is the one value it starts", async () => {
    const { errors, repaired, after } = await roundTrip(cancel, { order_id: "#W1", reason: "no " });
    expect(errors[0]?.message).toMatch(/did you mean "no longer needed"\?/);
    expect(repaired).toEqual({ order_id: "#W1", reason: "no longer needed" });
    expect(after).toBeUndefined();
  });

  it("two values it starts offer neither", async () => {
    const { errors } = await roundTrip(cancel, { order_id: "#W1", reason: "no longer needed", other: "no " });
    expect(errors[0]?.message).not.toMatch(/did you mean/);
  });
});
