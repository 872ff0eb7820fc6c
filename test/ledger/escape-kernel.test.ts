// Issue 26: a line's texts are escaped by a WebAssembly kernel straight into the line's buffer
// (ledger/escape-kernel.ts). The bytes must be exactly what `JSON.stringify` and a UTF-8 encode
// give, for every string: quotes and backslashes at every place in a 16-byte chunk, the last
// chunk cut anywhere, non-ASCII, lone surrogates and control characters (which the engine's
// escape writes), texts past the kernel's room, and a buffer that grows in the middle of a text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineWriter } from "../../templates/runtime/ledger/line-writer.ts";

/** What `string(text)` writes, as text, after `before` bytes of padding. */
function written(out: LineWriter, text: string, before = 0): string {
  out.reset();
  if (before > 0) out.ascii("p".repeat(before));
  out.string(text);
  return Buffer.from(out.bytes().subarray(before)).toString("utf8");
}

/** Characters that matter to an escape, and ordinary ones. */
const UNIT = fc.constantFrom('"', "\\", "a", "{", ":", "é", "中", "😀", "\u2028", "\u007f", "\n", "\u0000", "\u001f", "\ud800", "\udc00", " ");

describe("the escape kernel", () => {
  it("runs in Node (so the tests below test it, not only the engine's escape)", () => {
    expect(new LineWriter(1024).kernel).toBe(true);
    expect(new LineWriter(1024, { kernel: false }).kernel).toBe(false);
  });

  it("writes JSON.stringify's bytes for every quote and backslash at every offset of every chunk length", () => {
    const out = new LineWriter(1 << 16);
    for (let length = 0; length <= 80; length++)
      for (let at = 0; at < length; at++)
        for (const special of ['"', "\\", "\n", "é", "\ud800"]) {
          const text = `${"x".repeat(at)}${special}${"y".repeat(length - at - 1)}`;
          expect(written(out, text)).toBe(JSON.stringify(text));
        }
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
