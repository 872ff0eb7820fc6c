import type Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { DescribedTool } from "@acme/agent-tools";
import { anthropicTools } from "@acme/agent-tools/anthropic";

/** Answers one user message with Anthropic Messages, calling guarded tools as the model asks. */
export async function anthropicTurn(client: Anthropic, tools: readonly DescribedTool[], question: string, turn: string): Promise<string> {
  const anthropic = anthropicTools(tools);
  const messages: MessageParam[] = [{ role: "user", content: question }];
  for (let step = 0; step < 8; step++) {
    const message = await client.messages.create({ model: "claude-sonnet-5", max_tokens: 1024, messages, tools: anthropic.definitions });
    messages.push({ role: "assistant", content: message.content });
    if (!message.content.some((block) => block.type === "tool_use")) {
      return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    }
    messages.push(await anthropic.answer(message, { turn })); // tool_result blocks, is_error set
  }
  return "";
}
