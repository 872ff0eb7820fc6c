// The encoders the line writer (line-writer.ts) calls per text: Node's own, without `Buffer#write`'s
// argument checks and encoding lookup, and the well-formedness test that says whether UTF-8 carries
// a text exactly. Each falls back to the portable call where the engine lacks the fast one.
/** `String#isWellFormed` (ES2024), where the engine has it. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !/\p{Cs}/u.test(text);

/**
 * The part of Node's `Buffer` the encoders use, named here so that the declarations this module
 * ships type-check in a consumer without @types/node. A `Buffer` is one.
 */
export interface WritableBytes extends Uint8Array {
  write(text: string, offset: number, encoding: "latin1" | "utf8"): number;
}

/** Node's own encoders, which `Buffer#write` calls after checking its arguments and looking up the encoding. */
interface Encoders {
  latin1Write?(text: string, offset: number): number;
  utf8Write?(text: string, offset: number): number;
}
const ENCODERS = Buffer.prototype as Encoders;

/**
 * `buffer.write(text, at, "latin1")` without the checks and the lookup (~20 ns of a ~60 ns call):
 * the writer's offsets are its own and always in range. Falls back to `write` where the encoder
 * is not there (a runtime other than Node).
 */
export const latin1Write: (buffer: WritableBytes, text: string, at: number) => number =
  typeof ENCODERS.latin1Write === "function"
    ? (buffer, text, at) => (buffer as Encoders as Required<Encoders>).latin1Write(text, at)
    : (buffer, text, at) => buffer.write(text, at, "latin1");

/** `buffer.write(text, at, "utf8")`, as `latin1Write`. */
export const utf8Write: (buffer: WritableBytes, text: string, at: number) => number =
  typeof ENCODERS.utf8Write === "function"
    ? (buffer, text, at) => (buffer as Encoders as Required<Encoders>).utf8Write(text, at)
    : (buffer, text, at) => buffer.write(text, at, "utf8");
