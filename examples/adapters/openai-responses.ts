import type OpenAI from "openai";
import type { ResponseCreateParamsNonStreaming, ResponseInput } from "openai/resources/responses/responses";
import { RefusalWatch, type DescribedTool } from "@acme/agent-tools";
import { openAiTools, responseFromStream } from "@acme/agent-tools/openai";

/** Answers one user message with the OpenAI Responses API, calling guarded tools as the model asks. */
export async function responsesTurn(client: OpenAI, tools: readonly DescribedTool[], question: string, turn: string, stream = false): Promise<string> {
  const openai = openAiTools(tools, { strict: "auto" });
  const refusals = new RefusalWatch(); // ends the turn if the model will not stop after a refusal
  let input: ResponseInput = [{ role: "user", content: question }];
  let previous: string | null = null;
  for (let step = 0; step < 8; step++) {
    const request: ResponseCreateParamsNonStreaming = { model: "gpt-5", input, tools: openai.responses, previous_response_id: previous };
    // Streamed, the final event's response is used as it is (not responses.stream(), which parses).
    const response = stream ? await responseFromStream(await client.responses.create({ ...request, stream: true })) : await client.responses.create(request);
    const outputs = await openai.answerResponse(response, { turn }); // one function_call_output per call
    if (outputs.length === 0) return response.output_text;
    const refused = refusals.after(outputs);
    if (refused) return refused;
    input = outputs;
    previous = response.id;
  }
  return refusals.refusal ?? "";
}
