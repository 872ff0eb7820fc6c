// Issue 26: a line's texts are escaped by a WebAssembly kernel straight into the line's buffer
// (ledger/escape-kernel.ts). The bytes must be exactly what `JSON.stringify` and a UTF-8 encode
// give, for every string: quotes and backslashes at every place in a 16-byte chunk, the last
// chunk cut anywhere, non-ASCII, lone surrogates and control characters (which the engine's
// escape writes), texts past the kernel's room, and a buffer that grows in the middle of a text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeKernel, LINE_AT, SOURCE_AT } from "../../templates/runtime/ledger/escape-kernel.ts";
import { LineWriter } from "../../templates/runtime/ledger/line-writer.ts";

/** What `string(text)` writes, as text, after `before` bytes of padding. */
function written(out: LineWriter, text: string, before = 0): string {
  out.reset();
  if (before > 0) out.ascii("p".repeat(before));
  out.string(text);
  return Buffer.from(out.bytes().subarray(before)).toString("utf8");
}

/** The 32 control characters, every one of which JSON.stringify escapes. */
const CONTROLS = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code));

/** What the kernel itself writes for an ASCII `text` (no engine behind it), or -1 where it gives up. */
function kernelWrites(text: string, room = 1 << 12): string | -1 {
  const kernel = escapeKernel(room);
  if (kernel === undefined) throw new Error("no escape kernel in this runtime");
  const memory = Buffer.from(kernel.memory.buffer);
  const length = memory.write(text, SOURCE_AT, "latin1");
  const end = kernel.escape(length, LINE_AT, LINE_AT + room);
  return end < 0 ? -1 : memory.subarray(LINE_AT, end).toString("latin1");
}

/** Characters that matter to an escape, and ordinary ones. */
const UNIT = fc.constantFrom('"', "\\", "a", "{", ":", "é", "中", "😀", "\u2028", "\u007f", "\ud800", "\udc00", " ", ...CONTROLS);

describe("the escape kernel", () => {
  it("runs in Node (so the tests below test it, not only the engine's escape)", () => {
    expect(new LineWriter(1024).kernel).toBe(true);
    expect(new LineWriter(1024, { kernel: false }).kernel).toBe(false);
  });

  it("writes JSON.stringify's bytes for every quote, backslash and control character at every offset of every chunk length", () => {
    const out = new LineWriter(1 << 16);
    for (let length = 0; length <= 80; length++)
      for (let at = 0; at < length; at++)
        for (const special of ['"', "\\", "é", "\ud800", ...CONTROLS]) {
          const text = `${"x".repeat(at)}${special}${"y".repeat(length - at - 1)}`;
          expect(written(out, text)).toBe(JSON.stringify(text));
        }
  });

  it("expands every mask of quotes and backslashes in both halves of a chunk, cut anywhere, as JSON.stringify does", () => {
    // The kernel's quotes-only path: each 8-byte half written through its mask's swizzle.
    const bits = (mask: number, salt: number): string =>
      Array.from({ length: 8 }, (_, byte) => ((mask >> byte) & 1 ? ((byte + salt) % 3 === 0 ? "\\" : '"') : String.fromCharCode(0x61 + byte))).join("");
    for (let shift = 0; shift < 16; shift++)
      for (let mask = 0; mask < 256; mask++) {
        const text = `${"p".repeat(shift)}${bits(mask, shift)}${bits((mask * 37 + shift) & 255, mask)}${'"'.repeat(mask % 5)}${"z".repeat(mask % 19)}`;
        for (const cut of [text.length, text.length - (mask % 11)])
          if (cut >= 0) expect(kernelWrites(text.slice(0, cut))).toBe(JSON.stringify(text.slice(0, cut)).slice(1, -1));
      }
  });

  it("escapes every control character itself, as JSON.stringify does, at every offset of every chunk length", () => {
    for (let length = 1; length <= 40; length++)
      for (let at = 0; at < length; at++)
        for (const control of CONTROLS) {
          const text = `${"x".repeat(at)}${control}${'"'.repeat(length - at - 1)}`;
          expect(kernelWrites(text)).toBe(JSON.stringify(text).slice(1, -1));
        }
    const pretty = JSON.stringify({ a: [1, "two\tthree"], b: { c: null } }, null, 2).replaceAll("\n", "\r\n");
    expect(kernelWrites(pretty)).toBe(JSON.stringify(pretty).slice(1, -1));
  });

  it("gives control characters whose escape outgrows the room back, and the writer still writes them", () => {
    // The check counts 6 bytes for any control byte, then 2 a byte after it, the quote and the overrun.
    expect(kernelWrites("\u0001".repeat(10), 6 * 10 + 17)).toBe(JSON.stringify("\u0001".repeat(10)).slice(1, -1));
    expect(kernelWrites("\u0001".repeat(10), 6 * 10 + 16)).toBe(-1);
    // A writer of 64 KiB: 15,000 control characters (90,000 bytes escaped) grow the buffer mid-text.
    const out = new LineWriter(0);
    const text = `${"\u0001".repeat(15_000)}"`;
    out.ascii("[");
    out.string(text);
    expect(Buffer.from(out.bytes()).toString("utf8")).toBe(`[${JSON.stringify(text)}`);
  });

  it("writes JSON.stringify's bytes for any string and any JSON text, with or without the kernel", () => {
    const kernel = new LineWriter(1 << 16);
    const engine = new LineWriter(1 << 16, { kernel: false });
    const texts = fc.oneof(
      fc.array(UNIT, { maxLength: 200 }).map((units) => units.join("")),
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.json({ maxDepth: 4 }),
      fc.array(fc.constantFrom('"', "\\", "b"), { minLength: 60, maxLength: 400 }).map((units) => units.join("")),
    );
    fc.assert(
      fc.property(texts, fc.nat(40), (text, before) => {
        expect(written(kernel, text, before)).toBe(JSON.stringify(text));
        expect(written(engine, text, before)).toBe(JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("writes texts at, and past, the longest the kernel takes, and ones that grow the buffer mid-text", () => {
    // The kernel takes texts up to 21,845 units (a third of its 64 KiB source room).
    for (const length of [21_844, 21_845, 21_846, 70_000]) {
      const text = `${'"é'.repeat(length >> 1)}${length & 1 ? "\\" : ""}`;
      expect(text.length).toBe(length);
      expect(written(new LineWriter(0), text)).toBe(JSON.stringify(text));
    }
    // A writer of 64 KiB, 60,000 bytes in: the second text's escape does not fit and the buffer grows under it.
    const out = new LineWriter(0);
    const text = '"é'.repeat(10_000);
    const pad = "p".repeat(60_000);
    out.ascii(pad);
    out.string(text);
    out.string(text);
    expect(Buffer.from(out.bytes()).toString("utf8")).toBe(pad + JSON.stringify(text) + JSON.stringify(text));
    expect(out.kernel).toBe(true);
    // Reset shrinks the buffer back, with a kernel still.
    expect(written(out, text)).toBe(JSON.stringify(text));
    expect(out.kernel).toBe(true);
  });

  it("grows into a plain buffer and goes back to the kernel's own memory on reset, making no new one", () => {
    const out = new LineWriter(0);
    out.string("x");
    const home = out.bytes().buffer;
    expect(home).not.toBeInstanceOf(Buffer); // the kernel's memory, not a pool slice
    const long = 'a"'.repeat(60_000);
    out.reset();
    out.string(long);
    expect(Buffer.from(out.bytes()).toString("utf8")).toBe(JSON.stringify(long));
    expect(out.bytes().buffer).not.toBe(home);
    for (let line = 0; line < 3; line++) {
      expect(written(out, 'q"\\é'.repeat(30))).toBe(JSON.stringify('q"\\é'.repeat(30)));
      expect(out.bytes().buffer).toBe(home);
    }
  });

  it("leaves the bytes before a text alone when it gives a text back to the engine", () => {
    const out = new LineWriter(1024);
    out.ascii("[");
    for (const text of ['a"b\nc'.repeat(20), `${"q".repeat(100)}\ud800`, `${"\\".repeat(100)}\u0001`]) {
      out.string(text);
      out.byte(0x2c);
    }
    const expected = `[${['a"b\nc'.repeat(20), `${"q".repeat(100)}\ud800`, `${"\\".repeat(100)}\u0001`].map((text) => `${JSON.stringify(text)},`).join("")}`;
    expect(Buffer.from(out.bytes()).toString("utf8")).toBe(expected);
  });
});
