// The bytes of the JSONL sink's lines, written straight into one buffer reused from slice to
// slice: the fixed parts of a line are bytes encoded once (`fixed`), each text is escaped once
// and encoded into the buffer, and no line-long string is built (which was concatenated from
// pieces, flattened and then encoded again, and left garbage the size of every slice). Where
// WebAssembly is there, the buffer is the memory of an escape kernel (escape-kernel.ts), which
// escapes long texts straight into it.
import { escapeKernel, LINE_AT, OVERRUN, SOURCE_AT, SOURCE_BYTES, type Escape } from "./escape-kernel.ts";
import { isWellFormed, latin1Write, utf8Write } from "./native-encoders.ts";

/** Room kept past the slice's byte bound, so a line of up to ~10,000 characters always fits. */
const MARGIN = 64 * 1024;
/** Fixed pieces this long or longer are copied by `set`, shorter ones by a loop (`bytesOf`). */
const SET_FROM_BYTES = 16;
/** Texts this short are tried as plain ASCII first (`string`). */
const SHORT_TEXT = 64;
/** Texts this long or shorter go through the kernel: their UTF-8 (at most 3 bytes a unit) fits its source room. */
const KERNEL_TEXT = Math.floor(SOURCE_BYTES / 3);
/** ASCII text encoded once, for `bytesOf`: the fixed parts of every line. */
export function fixed(text: string): Uint8Array {
  return Buffer.from(text, "latin1");
}

export class LineWriter {
  readonly #capacity: number;
  /** The buffer of `#capacity` bytes made once (in the kernel's memory where there is one), and the one written now. */
  readonly #home: Buffer;
  #buffer: Buffer;
  /** The kernel's source room (a view of its memory) and its function; undefined without one. */
  readonly #source: Buffer | undefined;
  readonly #kernelEscape: Escape | undefined;
  /** The kernel while the home buffer is written; undefined without one, and while a long line has grown the buffer. */
  #escape: Escape | undefined;
  #at = 0;
  /** The slice's time (`time`), read at its first ask after `reset`; undefined until then. */
  #clock: number | undefined;

  /**
   * `bound`: the bytes after which a slice ends (a line that starts before it is kept whole).
   * `kernel: false` keeps the engine's escape (`JSON.stringify`) even where the kernel runs: the
   * same bytes, for tests and for comparison.
   */
  constructor(bound: number, options: { readonly kernel?: boolean } = {}) {
    this.#capacity = bound + MARGIN;
    const kernel = (options.kernel ?? true) ? escapeKernel(this.#capacity) : undefined;
    this.#source = kernel === undefined ? undefined : Buffer.from(kernel.memory.buffer, SOURCE_AT, SOURCE_BYTES);
    this.#kernelEscape = kernel?.escape;
    this.#escape = this.#kernelEscape;
    this.#home = kernel === undefined ? Buffer.allocUnsafeSlow(this.#capacity) : Buffer.from(kernel.memory.buffer, LINE_AT, this.#capacity);
    this.#buffer = this.#home;
  }

  /** Whether long texts are escaped by the kernel (WebAssembly there and not turned off). */
  get kernel(): boolean {
    return this.#kernelEscape !== undefined;
  }

  /** Bytes written since `reset`. */
  get length(): number {
    return this.#at;
  }

  /**
   * Starts a new slice. The view `bytes()` returned before is overwritten from now on: call it
   * only once that slice is written (or given up).
   */
  reset(): void {
    this.#at = 0;
    this.#clock = undefined;
    // A long line grew the buffer: give that memory back, and the kernel its own again.
    if (this.#buffer !== this.#home) {
      this.#buffer = this.#home;
      this.#escape = this.#kernelEscape;
    }
  }

  /**
   * The slice's time in milliseconds since the epoch: `Date.now()` at the first ask after `reset`,
   * the same number for the rest of the slice. An entry whose call did not read its time takes
   * this one (chain-record.ts): the sink's slices last at most a few milliseconds (ledger-jsonl.ts
   * `SLICE_MS`), and a clock read per line was a tenth of a clean line.
   */
  time(): number {
    return (this.#clock ??= Date.now());
  }

  /** Goes back to `at` (a length read before): what was written since is dropped. */
  rewind(at: number): void {
    this.#at = at;
  }

  /** The bytes written since `reset`: a view of the buffer, valid until the next `reset`. */
  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#at);
  }

  /** The bytes from `start` on (a view, as `bytes`). */
  since(start: number): Uint8Array {
    return this.#buffer.subarray(start, this.#at);
  }

  /** Bytes fixed in advance (field names and punctuation, encoded once: see `fixed`). */
  bytesOf(bytes: Uint8Array): void {
    const length = bytes.length;
    this.#room(length);
    const buffer = this.#buffer;
    let at = this.#at;
    // `set` costs about the same whatever the length (a memmove behind one call, ~20 ns); a
    // copy loop costs ~2 ns a byte, so it is cheaper only for the shortest pieces.
    if (length >= SET_FROM_BYTES) {
      buffer.set(bytes, at);
      this.#at = at + length;
      return;
    }
    for (let index = 0; index < length; index++) buffer[at++] = bytes[index] as number;
    this.#at = at;
  }

  /** Text known to be ASCII with nothing to escape: ids, times, verdicts. */
  ascii(text: string): void {
    this.#room(text.length);
    this.#at += latin1Write(this.#buffer, text, this.#at);
  }

  /** One byte (ASCII). */
  byte(code: number): void {
    this.#room(1);
    this.#buffer[this.#at++] = code;
  }

  /** A non-negative integer below 2^32 as `width` decimal digits, zero-padded (a time's milliseconds). */
  decimal(value: number, width: number): void {
    this.#room(width);
    this.decimalAt(this.#at, value, width);
    this.#at += width;
  }

  /**
   * `decimal`'s digits written over `width` bytes already written from `at` on: a placeholder in a
   * fixed piece (a line's head and time are one piece each, their digits filled in).
   */
  decimalAt(start: number, value: number, width: number): void {
    const buffer = this.#buffer;
    // Small-integer arithmetic: a division by a base passed in as a parameter was done in
    // floating point, and was an eighth of a clean line.
    let rest = value >>> 0;
    for (let at = start + width - 1; at >= start; at--) {
      const next = (rest / 10) >>> 0;
      buffer[at] = 0x30 + rest - next * 10;
      rest = next;
    }
  }

  /** A non-negative integer below 2^32 as `width` lower-case hex digits, zero-padded (a chain id's counter). */
  hex(value: number, width: number): void {
    this.#room(width);
    this.hexAt(this.#at, value, width);
    this.#at += width;
  }

  /** `hex`'s digits written over bytes already written, as `decimalAt`. */
  hexAt(start: number, value: number, width: number): void {
    const buffer = this.#buffer;
    let rest = value >>> 0;
    for (let at = start + width - 1; at >= start; at--) {
      const digit = rest & 15;
      buffer[at] = digit < 10 ? 0x30 + digit : 0x57 + digit; // 0x57 + 10 is "a"
      rest >>>= 4;
    }
  }

  /** A number, as `JSON.stringify` writes it; one digit without a conversion. */
  number(value: number): void {
    if (value >= 0 && value < 10 && Number.isInteger(value)) {
      this.#room(1);
      this.#buffer[this.#at++] = 0x30 + value;
      return;
    }
    this.ascii(JSON.stringify(value));
  }

  /**
   * `text` as a JSON string, quotes included, the bytes `JSON.stringify` gives: a short plain
   * one copied as it is; else encoded once into the kernel's source room and escaped by the
   * kernel into the buffer; else (no kernel, a lone surrogate, a text too long for the room,
   * control characters whose escape outgrows the buffer) escaped by the engine's JSON writer and
   * encoded into the buffer. (A hand-written escaping loop in JavaScript measured 1.0-1.5x slower
   * than the engine.)
   */
  string(text: string): void {
    if (text.length <= SHORT_TEXT && this.#plainString(text)) return;
    if (this.#escape === undefined || text.length > KERNEL_TEXT || !this.#escaped(text)) this.utf8(JSON.stringify(text));
  }

  /** `string` through the kernel; false, with nothing written, for a text it does not take. */
  #escaped(text: string): boolean {
    const bytes = utf8Write(this.#source as Buffer, text, 0);
    // One byte a unit is ASCII; otherwise UTF-8 carries the text exactly only if it is well formed.
    if (bytes !== text.length && !isWellFormed(text)) return false;
    // Escaped, the text is at most twice its bytes; the quotes and the kernel's last store besides.
    const escapeInto = this.#escape as Escape;
    this.#room(2 * bytes + 2 + OVERRUN);
    // The buffer grew (a line past the margin): the kernel does not write into it.
    if (this.#escape !== escapeInto) return false;
    const start = this.#at;
    const last = escapeInto(bytes, LINE_AT + start + 1, LINE_AT + this.#buffer.length);
    if (last < 0) return false; // control bytes past the room: the engine writes the escape
    const end = last - LINE_AT;
    const buffer = this.#buffer;
    buffer[start] = 0x22;
    buffer[end] = 0x22;
    this.#at = end + 1;
    return true;
  }

  /**
   * A short text with nothing to escape and nothing past ASCII (a turn id, most tool names),
   * copied a character at a time with its quotes: two native calls (the escape and the encode)
   * cost ten times the copy. False, with nothing written, for any other text.
   */
  #plainString(text: string): boolean {
    const length = text.length;
    this.#room(length + 2);
    const buffer = this.#buffer;
    const start = this.#at;
    let at = start + 1;
    for (let index = 0; index < length; index++) {
      const code = text.charCodeAt(index);
      // Below 0x20: control characters; 0x22 and 0x5c: `"` and `\`; from 0x7f on: DEL and non-ASCII.
      if (code < 0x20 || code === 0x22 || code === 0x5c || code >= 0x7f) return false;
      buffer[at++] = code;
    }
    buffer[start] = 0x22;
    buffer[at++] = 0x22;
    this.#at = at;
    return true;
  }

  /**
   * JSON text written as it is, as UTF-8 (a clean attempt's raw text, embedded in a version-3
   * line): false, with nothing written, for a text with a lone surrogate, which UTF-8 cannot
   * carry exactly. The caller has made sure it holds no line break (`hasLineBreak`).
   */
  verbatim(text: string): boolean {
    const start = this.#at;
    this.utf8(text);
    // One byte a unit is ASCII; otherwise UTF-8 carries the text exactly only if it is well formed.
    if (this.#at - start !== text.length && !isWellFormed(text)) {
      this.#at = start;
      return false;
    }
    return true;
  }

  /** Any JSON value (nested records: errors, coercions, resolutions), through `JSON.stringify`. */
  json(value: unknown): void {
    this.utf8(JSON.stringify(value) as string);
  }

  /** Text already in its final form (JSON), encoded as UTF-8. */
  utf8(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: measure exactly only when that bound does not fit.
    if (this.#at + text.length * 3 > this.#buffer.length) this.#room(Buffer.byteLength(text, "utf8"));
    this.#at += utf8Write(this.#buffer, text, this.#at);
  }

  /** Ends the line. */
  newline(): void {
    this.#room(1);
    this.#buffer[this.#at++] = 0x0a;
  }

  /** Makes room for `bytes` more, growing the buffer (for this slice) when a long line needs it. */
  #room(bytes: number): void {
    const needed = this.#at + bytes;
    if (needed <= this.#buffer.length) return;
    // A plain buffer, not a new kernel memory (a memory and an instance cost ~0.1-0.7 ms each):
    // the rest of this line is escaped by the engine, and `reset` goes back to the home buffer.
    const buffer = this.#buffer;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, 2 * buffer.length));
    buffer.copy(grown, 0, 0, this.#at);
    this.#buffer = grown;
    this.#escape = undefined;
  }
}
