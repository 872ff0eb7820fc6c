// The stream helpers of the adapters (extras/openai/stream.ts, extras/anthropic/stream.ts) take
// the stream an SDK returns for `create({ ..., stream: true })`. Handed something else (an answer
// that was not streamed, or the stream's promise without `await`), they say so and what to pass,
// instead of failing inside `for await` with "is not async iterable".

/** `value` as an async iterable; else throws a TypeError naming the helper and what it needs. */
export function asEventStream<Event>(value: unknown, helper: string, create: string): AsyncIterable<Event> {
  if (value !== null && typeof value === "object" && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === "function") {
    return value as AsyncIterable<Event>;
  }
  const got =
    value === null || typeof value !== "object"
      ? String(value)
      : typeof (value as { then?: unknown }).then === "function"
        ? "a promise (await the stream first)"
        : "an object that is not a stream (an answer requested without stream: true?)";
  throw new TypeError(`toolguard: ${helper} needs the stream of ${create}({ ..., stream: true }), got ${got}`);
}
