// The Anthropic adapter with the real `@anthropic-ai/sdk` against a scripted model on 127.0.0.1
// speaking the Messages wire format, through the README's loop (examples/adapters/anthropic.ts).
// Anthropic hands over `input` already parsed, so text that is not JSON never reaches a client:
// what a cut-off call leaves is whatever the API parsed, marked by stop_reason "max_tokens".
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicTurn } from "../../examples/adapters/anthropic.ts";
import { startFakeModel, type FakeModel } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, INVALID_ENVELOPE, invoiceBench, okOutcome, RECEIVED, REFUSAL, TOOL, VALID } from "./invoice-script.ts";

let fake: FakeModel;
let client: Anthropic;
beforeAll(async () => {
  fake = await startFakeModel("anthropic");
  client = new Anthropic({ baseURL: fake.baseURL.replace(/\/v1$/, ""), apiKey: "test", maxRetries: 0 });
});
afterAll(() => fake.close());

/** The tool_result blocks the model got back, with their is_error flags. */
function resultBlocks(): { content: string; is_error: boolean }[] {
  const messages = fake.requests.at(-1)?.messages as { content: unknown }[];
  return messages.flatMap((message) =>
    (Array.isArray(message.content) ? (message.content as { type: string; content: string; is_error: boolean }[]) : []).filter(
      (block) => block.type === "tool_result",
    ),
  );
}

describe("Anthropic Messages through the adapter", () => {
  it("repairs the brief's invoice on the second call, is_error on the failure only", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await anthropicTurn(client, [bench.tool], "Invoice Acme BV for 1299 euro", "a-repair")).toBe("Done.");
    expect(bench.received).toEqual([RECEIVED]);
    expect(resultBlocks().map((block) => [JSON.parse(block.content), block.is_error])).toEqual([
      [INVALID_ENVELOPE, true],
      [okOutcome(2, expect.any(String)), false],
    ]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1, attempts: [{ raw: JSON.stringify(JSON.parse(INVALID)) }, { coercions: [] }] }]);
  });

  it("refuses a model that never gets it right, after one repair", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: INVALID }, { text: "I need the amount." }]);
    await anthropicTurn(client, [bench.tool], "Invoice Acme BV", "a-refuse");
    expect(bench.received).toEqual([]);
    expect(fake.requests).toHaveLength(3);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, REFUSAL]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1 }]);
  });

  it("reads stop_reason max_tokens as cut off, on input that already parsed", async () => {
    const bench = invoiceBench();
    // The API parsed what it could of the cut-off call: here, nothing (an empty input).
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await anthropicTurn(client, [bench.tool], "Invoice Acme BV", "a-cut");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "truncated" }], repairsLeft: 2 });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: "{}", finishReason: "max_tokens" }, {}] }]);
  });

  it("answers an unknown tool with the tools the model may call, as an error", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: "create_invoices", args: VALID }, { text: "Sorry." }]);
    await anthropicTurn(client, [bench.tool], "Invoice Acme BV", "a-unknown");
    expect(resultBlocks().map((block) => [JSON.parse(block.content), block.is_error])).toEqual([
      [
        {
          status: "unknown_tool",
          tool: "create_invoices",
          available: [TOOL],
          detail: 'There is no tool named "create_invoices". Call one of: "create_invoice".',
        },
        true,
      ],
    ]);
  });
});
