import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { DescribedTool } from "@acme/agent-tools";
import { openAiTools } from "@acme/agent-tools/openai";

/** Answers one user message with OpenAI Chat Completions, calling guarded tools as the model asks. */
export async function chatTurn(client: OpenAI, tools: readonly DescribedTool[], question: string, turn: string): Promise<string | null> {
  const openai = openAiTools(tools, { strict: "auto" }); // strict where the schema allows it
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: question }];
  for (let step = 0; step < 8; step++) {
    const completion = await client.chat.completions.create({ model: "gpt-5", messages, tools: openai.chat });
    const message = completion.choices[0]?.message;
    if (!message) return null;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    messages.push(...(await openai.answerChat(completion, { turn }))); // one tool message per call
  }
  return null;
}
