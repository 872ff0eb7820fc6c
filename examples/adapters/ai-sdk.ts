import { generateText, stepCountIs, type LanguageModel, type ModelMessage } from "ai";
import type { DescribedTool } from "@acme/agent-tools";
import { aiSdkTools, answerCutOffStep, repairToolCall } from "@acme/agent-tools/ai-sdk";

/** Answers one user message with the Vercel AI SDK, calling guarded tools as the model asks. */
export async function aiSdkTurn(model: LanguageModel, tools: readonly DescribedTool[], question: string, turn: string): Promise<string> {
  const messages: ModelMessage[] = [{ role: "user", content: question }];
  for (let round = 0; round < 4; round++) {
    const result = await generateText({ model, messages, tools: aiSdkTools(tools, { turn }), repairToolCall, stopWhen: stepCountIs(8) });
    messages.push(...result.response.messages);
    // The SDK runs no tool call of a step cut off at the token limit; the guard answers it.
    const cutOff = await answerCutOffStep(tools, result.steps[result.steps.length - 1]!, { turn });
    if (!cutOff) return result.text;
    messages.push(cutOff);
  }
  return "";
}
