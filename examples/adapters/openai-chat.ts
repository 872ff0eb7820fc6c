import type OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { RefusalWatch, type DescribedTool } from "@acme/agent-tools";
import { chatCompletionFromStream, openAiTools } from "@acme/agent-tools/openai";

/** Answers one user message with OpenAI Chat Completions, calling guarded tools as the model asks. */
export async function chatTurn(client: OpenAI, tools: readonly DescribedTool[], question: string, turn: string, stream = false): Promise<string | null> {
  const openai = openAiTools(tools, { strict: "auto" }); // strict where the schema allows it
  const refusals = new RefusalWatch(); // ends the turn if the model will not stop after a refusal
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: question }];
  for (let step = 0; step < 8; step++) {
    const request: ChatCompletionCreateParamsNonStreaming = { model: "gpt-5", messages, tools: openai.chat };
    // Streamed, the answer is read whole without parsing any call (not chat.completions.stream()).
    const completion = stream
      ? await chatCompletionFromStream(await client.chat.completions.create({ ...request, stream: true }))
      : await client.chat.completions.create(request);
    const message = completion.choices[0]?.message;
    if (!message) return null;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    const results = await openai.answerChat(completion, { turn }); // one tool message per call
    messages.push(...results);
    const refused = refusals.after(results);
    if (refused) return refused;
  }
  return refusals.refusal ?? null;
}
