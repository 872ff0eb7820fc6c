import type OpenAI from "openai";
import type { ResponseInput } from "openai/resources/responses/responses";
import type { DescribedTool } from "@acme/agent-tools";
import { openAiTools } from "@acme/agent-tools/openai";

/** Answers one user message with the OpenAI Responses API, calling guarded tools as the model asks. */
export async function responsesTurn(client: OpenAI, tools: readonly DescribedTool[], question: string, turn: string): Promise<string> {
  const openai = openAiTools(tools, { strict: "auto" });
  let input: ResponseInput = [{ role: "user", content: question }];
  let previous: string | undefined;
  for (let step = 0; step < 8; step++) {
    const response = await client.responses.create({ model: "gpt-5", input, tools: openai.responses, previous_response_id: previous });
    const outputs = await openai.answerResponse(response, { turn }); // one function_call_output per call
    if (outputs.length === 0) return response.output_text;
    input = outputs;
    previous = response.id;
  }
  return "";
}
