import { Agent, OpenAIProvider, Runner } from "@openai/agents";
import type OpenAI from "openai";
import type { DescribedTool } from "@acme/agent-tools";
import { agentsTools, endOnRepeatedRefusal, guardModelProvider, unknownToolFormatter } from "@acme/agent-tools/openai-agents";

/** Answers one user message with an OpenAI Agents run (one run is one turn for the guard). */
export async function agentsTurn(openAIClient: OpenAI, tools: readonly DescribedTool[], question: string, stream = false): Promise<unknown> {
  const runner = new Runner({
    modelProvider: guardModelProvider(new OpenAIProvider({ openAIClient, useResponses: true })),
    toolNotFoundBehavior: "return_error_to_model",
    toolErrorFormatter: unknownToolFormatter(tools),
    tracingDisabled: true,
  });
  const agent = new Agent({
    name: "billing",
    instructions: "Create the invoices the user asks for.",
    model: "gpt-5",
    tools: agentsTools(tools, { strict: "auto" }),
    toolUseBehavior: endOnRepeatedRefusal, // a model that will not stop after a refusal ends the run with it
  });
  if (!stream) return (await runner.run(agent, question, { maxTurns: 8 })).finalOutput;
  const streamed = await runner.run(agent, question, { maxTurns: 8, stream: true });
  for await (const _event of streamed) {
    // a UI shows the events as they come
  }
  await streamed.completed;
  return streamed.finalOutput;
}
