import { generateText, stepCountIs, streamText, type LanguageModel, type ModelMessage } from "ai";
import { RefusalWatch, type DescribedTool } from "@acme/agent-tools";
import { aiSdkTools, answerCutOffStep, repairToolCall, stopOnRepeatedRefusal } from "@acme/agent-tools/ai-sdk";

/** Answers one user message with the Vercel AI SDK, calling guarded tools as the model asks. */
export async function aiSdkTurn(model: LanguageModel, tools: readonly DescribedTool[], question: string, turn: string, stream = false): Promise<string> {
  const refusals = new RefusalWatch(); // ends the turn if the model will not stop after a refusal
  const messages: ModelMessage[] = [{ role: "user", content: question }];
  for (let round = 0; round < 4; round++) {
    const options = { model, messages, tools: aiSdkTools(tools, { turn }), repairToolCall, stopWhen: [stepCountIs(8), stopOnRepeatedRefusal(refusals)] };
    const result = stream ? streamText(options) : await generateText(options); // streamText: read result.textStream for a UI
    const [steps, text, response] = await Promise.all([result.steps, result.text, result.response]);
    messages.push(...response.messages);
    if (refusals.ended) return refusals.refusal ?? text;
    // The SDK runs no tool call of a step cut off at the token limit; the guard answers it.
    const cutOff = await answerCutOffStep(tools, steps[steps.length - 1]!, { turn });
    if (!cutOff) return text;
    messages.push(cutOff);
  }
  return refusals.refusal ?? "";
}
