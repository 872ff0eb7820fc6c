// The streamed wire formats of the fake model (fake-model-server.ts), made from the same replies
// it sends whole: Server-Sent Events of OpenAI Responses (`response.created`, each output item
// added, its argument or text delta, done, then `response.completed` or, for an answer cut off,
// `response.incomplete`, carrying the whole response) and of Chat Completions (chunks with the
// deltas, a last chunk with `finish_reason`, then `[DONE]`).

type Item = { type: string; id?: string; arguments?: string; content?: { text: string }[] } & Record<string, unknown>;
type Reply = Record<string, unknown>;

/** A Responses reply as the event stream `responses.create({ stream: true })` reads. */
export function responsesEvents(reply: Reply): string {
  const events: Record<string, unknown>[] = [{ type: "response.created", response: { ...reply, status: "in_progress", output: [] } }];
  for (const [index, item] of (reply.output as Item[]).entries()) {
    const empty = item.type === "function_call" ? { ...item, arguments: "", status: "in_progress" } : { ...item, content: [], status: "in_progress" };
    events.push({ type: "response.output_item.added", output_index: index, item: empty });
    if (item.type === "function_call") {
      events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta: item.arguments });
      events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index: index, arguments: item.arguments });
    } else {
      const text = item.content?.[0]?.text ?? "";
      events.push({ type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta: text });
    }
    events.push({ type: "response.output_item.done", output_index: index, item });
  }
  events.push({ type: reply.status === "incomplete" ? "response.incomplete" : "response.completed", response: reply });
  return events.map((event, index) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join("");
}

/** A Chat Completions reply as the chunk stream `chat.completions.create({ stream: true })` reads. */
export function chatChunks(reply: Reply): string {
  const [choice] = reply.choices as { message: { content: string | null; tool_calls?: Record<string, unknown>[] }; finish_reason: string }[];
  const head = { id: reply.id, object: "chat.completion.chunk", created: reply.created, model: reply.model };
  const calls = choice?.message.tool_calls?.map((call, index) => ({ index, ...call }));
  const chunks = [
    {
      ...head,
      choices: [
        { index: 0, delta: { role: "assistant", content: choice?.message.content ?? null, ...(calls ? { tool_calls: calls } : {}) }, finish_reason: null },
      ],
    },
    { ...head, choices: [{ index: 0, delta: {}, finish_reason: choice?.finish_reason }], usage: reply.usage },
  ];
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
}
