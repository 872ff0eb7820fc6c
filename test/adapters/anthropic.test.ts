// The Anthropic adapter with the real `@anthropic-ai/sdk` against a scripted model on 127.0.0.1
// speaking the Messages wire format, through the README's loop (examples/adapters/anthropic.ts),
// streamed (Messages SSE, read by messageFromStream) and not. Not streamed, Anthropic hands over
// `input` already parsed, so text that is not JSON never reaches a client and a cut-off call
// leaves whatever the API parsed, marked by stop_reason "max_tokens"; streamed, the guard reads
// each call's text as written. Either way the outcomes are the same: repaired, refused, read as
// cut off (a second repair), explained and counted.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicTurn as turnOf } from "../../examples/adapters/anthropic.ts";
import { startFakeModel, type FakeModel } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, INVALID_ENVELOPE, invoiceBench, NOT_JSON, okOutcome, RECEIVED, REFUSAL, TOOL, VALID } from "./invoice-script.ts";

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

describe.each([false, true])("Anthropic Messages (streamed: %s) through the adapter", (stream) => {
  const anthropicTurn = async (...args: [Anthropic, Parameters<typeof turnOf>[1], string, string]) => {
    const answer = await turnOf(...args, stream);
    expect(fake.requests.map((body) => body.stream === true)).toEqual(fake.requests.map(() => stream));
    return answer;
  };

  it("repairs the brief's invoice on the second call, is_error on the failure only", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await anthropicTurn(client, [bench.tool], "Invoice Acme BV for 1299 euro", "a-repair")).toBe("Done.");
    expect(bench.received).toEqual([RECEIVED]);
    expect(resultBlocks().map((block) => [JSON.parse(block.content), block.is_error])).toEqual([
      [INVALID_ENVELOPE, true],
      [okOutcome(2, expect.any(String)), false],
    ]);
    expect(bench.chains()).toMatchObject([
      { verdict: "repaired", repairs: 1, attempts: [{ raw: stream ? INVALID : JSON.stringify(JSON.parse(INVALID)) }, { coercions: [] }] },
    ]);
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
    // Not streamed, the API parsed what it could (here nothing); streamed, the text as written.
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: stream ? CUT_OFF : "{}", finishReason: "max_tokens" }, {}] }]);
  });

  it("ends the turn with the refusal when the model will not stop", async () => {
    const bench = invoiceBench();
    fake.play([
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: VALID },
    ]);
    const answer = await anthropicTurn(client, [bench.tool], "Invoice Acme BV", "a-stubborn");
    expect(JSON.parse(answer)).toMatchObject({ status: "arguments_rejected", tool: TOOL });
    expect(fake.requests).toHaveLength(3);
    expect(bench.received).toEqual([]);
  });

  it("explains text that is not JSON and counts it: streamed, as written; not streamed, as the API parsed it", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await anthropicTurn(client, [bench.tool], "Invoice Acme BV", "a-text")).toBe("Done.");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", repairsLeft: 1, failure: stream ? "syntactic" : "structural" });
    if (stream) expect(first.errors).toMatchObject([{ rule: "single_quotes" }]);
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1 }]);
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
