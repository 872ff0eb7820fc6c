// The bytes of one slice of the JSONL sink: each line encoded as UTF-8 straight into one buffer
// that is reused from slice to slice, instead of concatenating the lines into one long string
// that is then flattened, measured and encoded again (that was a quarter of the sink's CPU per
// line, most of it garbage collection of megabyte strings).

/** Room kept past the slice's byte bound, so a line of up to ~21,000 characters always fits. */
const MARGIN = 64 * 1024;

export class SliceBuffer {
  readonly #capacity: number;
  #buffer: Buffer;
  #length = 0;

  /** `bound`: the bytes after which a slice ends (a line that starts before it is kept whole). */
  constructor(bound: number) {
    this.#capacity = bound + MARGIN;
    this.#buffer = Buffer.allocUnsafeSlow(this.#capacity);
  }

  /** Bytes written since `reset`. */
  get length(): number {
    return this.#length;
  }

  /**
   * Starts a new slice. The view `bytes()` returned before is overwritten from now on: call it
   * only once that slice is written (or given up).
   */
  reset(): void {
    this.#length = 0;
    // A long line grew the buffer: give the memory back.
    if (this.#buffer.length > this.#capacity) this.#buffer = Buffer.allocUnsafeSlow(this.#capacity);
  }

  /** Appends `line` (one JSON text, no line break in it) and a newline. */
  add(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: measure exactly only when that bound does not fit.
    if (this.#length + line.length * 3 + 1 > this.#buffer.length) {
      const needed = this.#length + Buffer.byteLength(line, "utf8") + 1;
      if (needed > this.#buffer.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(needed, 2 * this.#buffer.length));
        this.#buffer.copy(grown, 0, 0, this.#length);
        this.#buffer = grown;
      }
    }
    this.#length += this.#buffer.write(line, this.#length, "utf8");
    this.#buffer[this.#length++] = 0x0a;
  }

  /** The slice's bytes: a view of the buffer, valid until the next `reset`. */
  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}
