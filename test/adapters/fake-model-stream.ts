// The streamed wire formats of the fake model (fake-model-server.ts), made from the same replies
// it sends whole, as each provider sends them: Server-Sent Events of OpenAI Responses
// (`response.created`, each output item added, its argument or text deltas, done, then
// `response.completed` or, for an answer cut off, `response.incomplete`, carrying the whole
// response), of Chat Completions (a chunk naming each tool call, chunks with pieces of its
// argument text, a last chunk with `finish_reason`, then `[DONE]`) and of Anthropic Messages
// (`message_start`, per block `content_block_start`, `input_json_delta`/`text_delta` pieces,
// `content_block_stop`, then `message_delta` with `stop_reason` and `message_stop`). Argument
// text is streamed in small pieces, as models write it, and never parsed on the way.

type Item = { type: string; id?: string; arguments?: string; content?: { text: string }[] } & Record<string, unknown>;
type Reply = Record<string, unknown>;

/** Text in the pieces a model streams it in. */
function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

/** A Responses reply as the event stream `responses.create({ stream: true })` reads. */
export function responsesEvents(reply: Reply): string {
  const events: Record<string, unknown>[] = [{ type: "response.created", response: { ...reply, status: "in_progress", output: [] } }];
  for (const [index, item] of (reply.output as Item[]).entries()) {
    const empty = item.type === "function_call" ? { ...item, arguments: "", status: "in_progress" } : { ...item, content: [], status: "in_progress" };
    events.push({ type: "response.output_item.added", output_index: index, item: empty });
    if (item.type === "function_call") {
      for (const delta of pieces(item.arguments ?? ""))
        events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta });
      events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index: index, arguments: item.arguments });
    } else {
      const text = item.content?.[0]?.text ?? "";
      events.push({
        type: "response.content_part.added",
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      for (const delta of pieces(text))
        events.push({ type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta, logprobs: [] });
      events.push({ type: "response.output_text.done", item_id: item.id, output_index: index, content_index: 0, text, logprobs: [] });
    }
    events.push({ type: "response.output_item.done", output_index: index, item });
  }
  events.push({ type: reply.status === "incomplete" ? "response.incomplete" : "response.completed", response: reply });
  return sse(events.map((event, index) => ({ ...event, sequence_number: index })));
}

/** A Chat Completions reply as the chunk stream `chat.completions.create({ stream: true })` reads. */
export function chatChunks(reply: Reply): string {
  const [choice] = reply.choices as { message: { content: string | null; tool_calls?: Record<string, unknown>[] }; finish_reason: string }[];
  const head = { id: reply.id, object: "chat.completion.chunk", created: reply.created, model: reply.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: "assistant", content: choice?.message.tool_calls ? null : "" })];
  for (const text of pieces(choice?.message.content ?? "")) chunks.push(chunk({ content: text }));
  for (const [index, call] of (choice?.message.tool_calls ?? []).entries()) {
    const fn = call.function as { name: string; arguments: string };
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: fn.name, arguments: "" } }] }));
    for (const text of pieces(fn.arguments)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: text } }] }));
  }
  chunks.push({ ...chunk({}, choice?.finish_reason ?? "stop"), usage: reply.usage });
  return `${chunks.map((entry) => `data: ${JSON.stringify(entry)}\n\n`).join("")}data: [DONE]\n\n`;
}

/**
 * An Anthropic reply as the event stream `messages.create({ stream: true })` reads; `args` is each
 * tool_use block's argument text as the model wrote it (the whole reply carries it parsed).
 */
export function anthropicEvents(reply: Reply, args: readonly (string | undefined)[]): string {
  const content = reply.content as ({ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown })[];
  const usage = reply.usage as Record<string, number>;
  const events: Record<string, unknown>[] = [
    { type: "message_start", message: { ...reply, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
  ];
  for (const [index, block] of content.entries()) {
    if (block.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } });
      if (index === 0) events.push({ type: "ping" });
      for (const text of pieces(block.text)) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    } else {
      events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      if (index === 0) events.push({ type: "ping" });
      const text = args[index] ?? JSON.stringify(block.input);
      for (const partial_json of ["", ...pieces(text)]) events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
    }
    events.push({ type: "content_block_stop", index });
  }
  events.push({ type: "message_delta", delta: { stop_reason: reply.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: "message_stop" });
  return sse(events);
}
