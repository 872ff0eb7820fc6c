import type Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { RefusalWatch, type DescribedTool } from "@acme/agent-tools";
import { anthropicTools, messageFromStream } from "@acme/agent-tools/anthropic";

/** Answers one user message with Anthropic Messages, calling guarded tools as the model asks. */
export async function anthropicTurn(client: Anthropic, tools: readonly DescribedTool[], question: string, turn: string, stream = false): Promise<string> {
  const anthropic = anthropicTools(tools);
  const refusals = new RefusalWatch(); // ends the turn if the model will not stop after a refusal
  const messages: MessageParam[] = [{ role: "user", content: question }];
  for (let step = 0; step < 8; step++) {
    const request: MessageCreateParamsNonStreaming = { model: "claude-sonnet-5", max_tokens: 1024, messages, tools: anthropic.definitions };
    // Streamed, each call's text reaches the guard as written (messages.stream() throws on text that is not JSON).
    const message = stream ? await messageFromStream(await client.messages.create({ ...request, stream: true })) : await client.messages.create(request);
    messages.push({ role: "assistant", content: message.content });
    if (!message.content.some((block) => block.type === "tool_use")) {
      return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    }
    const results = await anthropic.results(message, { turn }); // tool_result blocks, is_error set
    messages.push({ role: "user", content: results });
    const refused = refusals.after(results);
    if (refused) return refused;
  }
  return refusals.refusal ?? "";
}
