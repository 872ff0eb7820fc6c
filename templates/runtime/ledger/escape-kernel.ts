// The JSON escape of a ledger line's texts as a WebAssembly kernel: a raw text's UTF-8 bytes are
// copied into a JSON string 16 bytes at a time, with `\` put before each `"` and `\`. A chunk
// with quotes or backslashes and no control byte (a JSON text's, as a rule: every key and string
// is quoted) is written as two 8-byte halves, each through a swizzle of the chunk picked by its
// 8-bit mask (`EXPANSIONS`) that leaves a gap before each byte to escape, and the `\`s OR-ed into
// the gaps; a chunk with a control byte goes byte to escape by byte to escape. One pass per
// chunk, not one per quote, took a whole line's CPU to 0.78x on the ruleset body and 0.91-1.0x
// on the others; the OR-ed `\`s, in place of a two-operand shuffle per half, took the kernel to
// 0.72-0.76x again. Escaping the raw text
// (`JSON.stringify` of it, then encoding that string again) was the largest part of a clean
// call's line; the kernel does both in one pass over bytes the engine wrote once,
// straight into the line's buffer, and allocates nothing.
//
// Why bytes are enough: in UTF-8, `"` (0x22), `\` (0x5c) and the control characters (below 0x20)
// are single bytes that never occur inside a longer character, and `JSON.stringify` changes
// nothing else in a well-formed string (non-ASCII, U+2028, DEL are written as they are). A
// control byte is written as `JSON.stringify` writes it: `\b \t \n \f \r`, the rest `\u00XX`
// in lower-case hex (pretty-printed JSON, full of `\n`, was escaped twice when the kernel gave
// those up). The short forms are a 32-byte table in the memory's gap after the source room. A
// control byte's escape (6 bytes for 1) can outgrow the room the caller made (2 bytes a byte):
// then the kernel gives up (-1) and the caller (line-writer.ts) keeps the engine's escape, as it
// does for a text with a lone surrogate, which UTF-8 cannot carry.
//
// The module is assembled here from its instructions, commented, so that what runs is what is
// read (no binary is shipped). Where WebAssembly or its 128-bit SIMD is missing (`--jitless`, an
// old CPU), `escapeKernel` answers undefined and the line writer keeps the engine's escape.

/** What the kernel uses of the WebAssembly API (the project's TypeScript libraries do not declare it). */
interface Wasm {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  readonly Memory: new (descriptor: { readonly initial: number }) => WasmMemory;
}
/** A WebAssembly memory: its bytes are `buffer`. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
/** The engine's WebAssembly, or undefined (`--jitless`, a runtime without it). */
const WASM = (globalThis as { WebAssembly?: Wasm }).WebAssembly;

/** Memory offset where the source text's UTF-8 is written; the kernel reads up to 15 bytes past its end. */
export const SOURCE_AT: number = 0;
/** Bytes of source room: texts of up to a third of this many characters (UTF-8 is at most 3 bytes a UTF-16 unit) go through the kernel. */
export const SOURCE_BYTES: number = 64 * 1024;
/** Where the short forms of the control characters are (32 bytes in the gap after the read-ahead): the letter, or 0 for `\u00XX`. */
export const TABLE_AT: number = SOURCE_BYTES + 32;
/**
 * Where the quotes' expansions are (`EXPANSIONS`, after the short forms): for each 8-bit mask of
 * the bytes to escape in a half chunk, 16 lane indices into the chunk for the low half and for the
 * high half (0x80, read as 0, where a `\` goes), and the `\`s to put in those lanes.
 */
export const LOW_AT: number = SOURCE_BYTES + 64;
export const HIGH_AT: number = LOW_AT + 256 * 16;
export const BACKSLASHES_AT: number = HIGH_AT + 256 * 16;
/** Where the line's buffer starts in the kernel's memory: after the source, its read-ahead and the tables. */
export const LINE_AT: number = BACKSLASHES_AT + 256 * 16;
/** Bytes past the escaped text that the kernel may overwrite (its last 16-byte store). */
export const OVERRUN: number = 16;
const PAGE = 64 * 1024;

/**
 * `escape(length, to, limit)`: the escaped bytes of the `length` source bytes at SOURCE_AT, written
 * at `to`; returns their end, or -1 where a control byte's escape would leave less than two bytes a
 * byte left, the closing quote and the last store's overrun before `limit`.
 */
export type Escape = (length: number, to: number, limit: number) => number;

/** A kernel instance over a memory of its own: `bytes` is that memory, `escape` the function. */
export interface EscapeKernel {
  readonly memory: WasmMemory;
  readonly escape: Escape;
}

// The instructions used (WebAssembly 2.0 with fixed-width SIMD), by name.
const I32 = 0x7f;
const V128 = 0x7b;
const [BLOCK, LOOP, IF, ELSE, END, BR, BR_IF, RETURN, SELECT] = [0x02, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x0d, 0x0f, 0x1b];
const [GET, SET, TEE] = [0x20, 0x21, 0x22];
const [STORE, LOAD8, STORE8, CONST] = [0x36, 0x2d, 0x3a, 0x41];
const [EQZ, NE, LT_S, LT_U, GT_U, GE_U, CTZ, POPCNT, ADD, SUB, MUL, AND, OR, SHL, SHR_U] = [
  0x45, 0x47, 0x48, 0x49, 0x4b, 0x4f, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x71, 0x72, 0x74, 0x76,
];
const NO_RESULT = 0x40;
/** A SIMD instruction (prefix 0xfd). */
const simd = (op: number, ...immediates: number[]): number[] => [0xfd, ...unsigned(op), ...immediates];
const V128_LOAD = simd(0x00, 0, 0); // alignment 1, offset 0
const V128_STORE = simd(0x0b, 0, 0);
const EVERY_BYTE = (byte: number): number[] => simd(0x0c, ...new Array<number>(16).fill(byte)); // v128.const
const [I8X16_EQ, I8X16_LT_U, V128_OR, I8X16_BITMASK, I8X16_SWIZZLE] = [simd(0x23), simd(0x26), simd(0x50), simd(0x64), simd(0x0e)];
/** `v128.load` of the table entry at `table` plus the offset on the stack. */
const TABLE_LOAD = (table: number): number[] => simd(0x00, 0, ...unsigned(table));

// Locals: the three parameters, then seven i32, one v128 and two i32.
const [LENGTH, TO, LIMIT, FROM, END_AT, LEFT, MASK, STEP, BYTE, SHORT, CHUNK, CONTROL, HALF] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** `\u00` as the little-endian i32 stored in one go. */
const BACKSLASH_U00 = 0x3030755c;

// biome-ignore format: the instructions are laid out as a listing, one statement a line
const BODY: readonly number[] = [
  // from = SOURCE_AT; end = from + length
  CONST, ...signed(SOURCE_AT), TEE, FROM, GET, LENGTH, ADD, SET, END_AT,
  BLOCK, NO_RESULT, BLOCK, NO_RESULT, LOOP, NO_RESULT,
  //   if (from >= end) break (to the end: done)
  GET, FROM, GET, END_AT, GE_U, BR_IF, 2,
  GET, END_AT, GET, FROM, SUB, SET, LEFT,
  //   chunk = the 16 bytes at from; stored at `to` as they are (what follows may overwrite part)
  GET, FROM, ...V128_LOAD, SET, CHUNK,
  GET, TO, GET, CHUNK, ...V128_STORE,
  //   mask = one bit per byte that is `"` or `\`; control = one per byte below 0x20
  GET, CHUNK, ...EVERY_BYTE(0x22), ...I8X16_EQ,
  GET, CHUNK, ...EVERY_BYTE(0x5c), ...I8X16_EQ, ...V128_OR,
  ...I8X16_BITMASK, SET, MASK,
  GET, CHUNK, ...EVERY_BYTE(0x20), ...I8X16_LT_U, ...I8X16_BITMASK, SET, CONTROL,
  //   past the end: bytes after the text's last do not count (both &= (1 << left) - 1)
  GET, LEFT, CONST, 16, LT_S, IF, NO_RESULT,
  GET, MASK, CONST, 1, GET, LEFT, SHL, CONST, 1, SUB, AND, SET, MASK,
  GET, CONTROL, CONST, 1, GET, LEFT, SHL, CONST, 1, SUB, AND, SET, CONTROL,
  END,
  //   quotes and backslashes only (a raw text's chunks, as a rule): each 8-byte half expanded by
  //   its mask's swizzle in one go; step = min(left, 16)
  GET, CONTROL, EQZ, GET, MASK, CONST, 0, NE, AND, IF, NO_RESULT,
  GET, LEFT, CONST, 16, GET, LEFT, CONST, 16, LT_S, SELECT, SET, STEP,
  //     half = the low half's mask times 16: its tables' offset (and the same popcount)
  GET, MASK, CONST, ...signed(0xff), AND, CONST, 4, SHL, SET, HALF,
  //     the low half: store its expansion; to += min(step, 8) + popcnt(half)
  GET, TO,
  GET, CHUNK, GET, HALF, ...TABLE_LOAD(LOW_AT), ...I8X16_SWIZZLE,
  GET, HALF, ...TABLE_LOAD(BACKSLASHES_AT), ...V128_OR,
  ...V128_STORE,
  GET, TO, GET, STEP, CONST, 8, GET, STEP, CONST, 8, LT_S, SELECT, ADD, GET, HALF, POPCNT, ADD, SET, TO,
  //     the high half, when the step reaches it: to += step - 8 + popcnt(half)
  GET, STEP, CONST, 8, GT_U, IF, NO_RESULT,
  GET, MASK, CONST, 8, SHR_U, CONST, 4, SHL, SET, HALF,
  GET, TO,
  GET, CHUNK, GET, HALF, ...TABLE_LOAD(HIGH_AT), ...I8X16_SWIZZLE,
  GET, HALF, ...TABLE_LOAD(BACKSLASHES_AT), ...V128_OR,
  ...V128_STORE,
  GET, TO, GET, STEP, CONST, 8, SUB, ADD, GET, HALF, POPCNT, ADD, SET, TO,
  END,
  GET, FROM, GET, STEP, ADD, SET, FROM,
  BR, 1, // continue
  END,
  //   a control byte in the chunk: byte by byte, as below
  GET, MASK, GET, CONTROL, OR, SET, MASK,
  //   nothing to escape: the chunk (or what is left) is copied; step = min(left, 16)
  GET, MASK, EQZ, IF, NO_RESULT,
  GET, LEFT, CONST, 16, GET, LEFT, CONST, 16, LT_S, SELECT, SET, STEP,
  GET, FROM, GET, STEP, ADD, SET, FROM,
  GET, TO, GET, STEP, ADD, SET, TO,
  BR, 1, // continue
  END,
  //   else the bytes before the first one to escape are copied (stored above) ...
  GET, MASK, CTZ, SET, STEP,
  GET, FROM, GET, STEP, ADD, SET, FROM,
  GET, TO, GET, STEP, ADD, SET, TO,
  //   ... a control byte is written as JSON.stringify writes it ...
  GET, FROM, LOAD8, 0, 0, TEE, BYTE, CONST, 0x20, LT_U, IF, NO_RESULT,
  //     (no room for its 6 bytes and two a byte after it, the quote and the overrun: the -1)
  GET, TO, GET, END_AT, GET, FROM, SUB, CONST, 1, SHL, ADD, CONST, 21, ADD, GET, LIMIT, GT_U, BR_IF, 2,
  //     a short form (`\n`) where the table has a letter ...
  GET, BYTE, LOAD8, 0, ...unsigned(TABLE_AT), TEE, SHORT, IF, NO_RESULT,
  GET, TO, CONST, ...signed(0x5c), STORE8, 0, 0,
  GET, TO, GET, SHORT, STORE8, 0, 1,
  GET, TO, CONST, 2, ADD, SET, TO,
  ELSE,
  //     ... else `\u00` and two lower-case hex digits (the high one is 0 or 1)
  GET, TO, CONST, ...signed(BACKSLASH_U00), STORE, 0, 0,
  GET, TO, GET, BYTE, CONST, 4, SHR_U, CONST, 0x30, ADD, STORE8, 0, 4,
  GET, BYTE, CONST, 15, AND, SET, SHORT,
  GET, TO, GET, SHORT, CONST, 0x30, ADD, GET, SHORT, CONST, 9, GT_U, CONST, 39, MUL, ADD, STORE8, 0, 5,
  GET, TO, CONST, 6, ADD, SET, TO,
  END,
  GET, FROM, CONST, 1, ADD, SET, FROM,
  BR, 1, // continue
  END,
  //   ... and `"` or `\` is written after a `\`
  GET, TO, CONST, ...signed(0x5c), STORE8, 0, 0,
  GET, TO, GET, BYTE, STORE8, 0, 1, // offset 1
  GET, TO, CONST, 2, ADD, SET, TO,
  GET, FROM, CONST, 1, ADD, SET, FROM,
  BR, 0, // continue
  END, END,
  CONST, ...signed(-1), RETURN,
  END,
  GET, TO,
  END,
];

/** The module's bytes: one function `escape(i32, i32, i32) -> i32` over an imported memory `js.memory`. */
function moduleBytes(): Uint8Array {
  const body = [3, 7, I32, 1, V128, 2, I32, ...BODY]; // local declarations: seven i32, one v128, two i32
  const name = (text: string): number[] => [...unsigned(text.length), ...Buffer.from(text, "latin1")];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [1, 0x60, 3, I32, I32, I32, 1, I32]), // types: (i32, i32, i32) -> i32
    ...section(2, [1, ...name("js"), ...name("memory"), 0x02, 0x00, 1]), // import js.memory, at least a page
    ...section(3, [1, 0]), // one function, of type 0
    ...section(7, [1, ...name("escape"), 0x00, 0]), // export it
    ...section(10, [1, ...unsigned(body.length), ...body]),
  ]);
}

function section(id: number, content: readonly number[]): number[] {
  return [id, ...unsigned(content.length), ...content];
}

function unsigned(value: number): number[] {
  const bytes: number[] = [];
  for (let rest = value; ; ) {
    const low = rest & 0x7f;
    rest >>>= 7;
    if (rest === 0) return [...bytes, low];
    bytes.push(low | 0x80);
  }
}

function signed(value: number): number[] {
  const bytes: number[] = [];
  for (let rest = value; ; ) {
    const low = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)) return [...bytes, low];
    bytes.push(low | 0x80);
  }
}

/** The table at TABLE_AT: JSON's short escapes of the control characters (`\b \t \n \f \r`), 0 for the rest. */
const SHORT_FORMS: Uint8Array = (() => {
  const table = new Uint8Array(32);
  for (const [code, letter] of [
    [8, "b"],
    [9, "t"],
    [10, "n"],
    [12, "f"],
    [13, "r"],
  ] as const)
    table[code] = letter.charCodeAt(0);
  return table;
})();

/**
 * The tables from LOW_AT: for each mask of 8 bits (bit i: the half's byte i is `"` or `\`), the
 * 16 lane indices that write the half's bytes with a `\` before each byte whose bit is set (8 +
 * popcount bytes; the lanes past them are padding, overwritten or past the end), 0x80 where the
 * `\` goes (`i8x16.swizzle` reads it as 0); the same indices for the high half (8 more); and the
 * `\`s, 0x5c where the indices are 0x80 and 0 elsewhere, OR-ed into the swizzled half.
 */
const EXPANSIONS: Uint8Array = (() => {
  const size = 256 * 16;
  const table = new Uint8Array(3 * size);
  for (let mask = 0; mask < 256; mask++) {
    let lane = mask * 16;
    const put = (index: number): void => {
      table[lane] = index;
      table[size + lane] = index === 0x80 ? 0x80 : index + 8;
      table[2 * size + lane] = index === 0x80 ? 0x5c : 0;
      lane++;
    };
    for (let byte = 0; byte < 8; byte++) {
      if ((mask >> byte) & 1) put(0x80);
      put(byte);
    }
    while (lane < mask * 16 + 16) put(0x80);
  }
  return table;
})();

/** The compiled module, once per process; undefined where WebAssembly or its SIMD is not there. */
const MODULE: object | undefined = (() => {
  try {
    return WASM === undefined ? undefined : new WASM.Module(moduleBytes());
  } catch {
    return undefined;
  }
})();

/**
 * A kernel over a memory of its own with room for a line buffer of `lineBytes` (from LINE_AT).
 * Undefined where there is no kernel: the caller keeps a plain buffer.
 */
export function escapeKernel(lineBytes: number): EscapeKernel | undefined {
  if (MODULE === undefined || WASM === undefined) return undefined;
  try {
    const memory = new WASM.Memory({ initial: Math.ceil((LINE_AT + lineBytes) / PAGE) });
    new Uint8Array(memory.buffer, TABLE_AT, 32).set(SHORT_FORMS);
    new Uint8Array(memory.buffer, LOW_AT, EXPANSIONS.length).set(EXPANSIONS);
    const instance = new WASM.Instance(MODULE, { js: { memory } });
    return { memory, escape: instance.exports["escape"] as Escape };
  } catch {
    return undefined;
  }
}
