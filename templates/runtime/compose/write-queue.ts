// Write ordering: calls that share a serialisation key run one at a time, in the order in which
// their arguments passed validation (each call's sequence number). Keys are independent: each
// has its own queue, and nothing another key does (a slow resolver, a stuck write) holds it back.
// A call whose references resolve late still goes before the later-validated writes of its key
// that are waiting, but never stops one already running. A write that fails leaves the queue like
// one that succeeds, so it blocks nobody; one that never finishes holds its key at most
// `timeoutMs`, and no call waits longer than that for its turn: it is refused with
// `WriteQueueTimeoutError` and does not run.

/** A place in one key's queue, taken when the call's arguments passed validation. */
export interface QueueTicket {
  /**
   * Settles when every earlier ticket of the same key has left (or held the key past the
   * bound). Rejects with `WriteQueueTimeoutError` when that takes longer than `timeoutMs`.
   */
  readonly ready: Promise<void>;
  /** Leaves the queue (after the write, whatever its result); idempotent. */
  leave(): void;
}

/** How long a write may hold its key, and a call wait for its turn, by default: 30 s. */
export const DEFAULT_SERIALIZE_TIMEOUT_MS = 30_000;

/**
 * The call waited longer than `serializeTimeoutMs` for the writes of its key before it: it was
 * not run. Thrown by `call`, marked as a dependency failure (the writes before it are).
 */
export class WriteQueueTimeoutError extends Error {
  /** The tool whose write could not enter. */
  readonly tool: string;
  /** How long the call waited, in milliseconds (the bound). */
  readonly waitedMs: number;

  constructor(tool: string, waitedMs: number) {
    super(
      `toolguard: ${tool} was not run: the writes before it under the same serializeBy key did not finish within ${waitedMs} ms (serializeTimeoutMs); nothing was written for this call`,
    );
    this.name = "WriteQueueTimeoutError";
    this.tool = tool;
    this.waitedMs = waitedMs;
  }
}

interface Entry {
  readonly seq: number;
  state: "waiting" | "running" | "left";
  timer: ReturnType<typeof setTimeout> | undefined;
  start(): void;
  fail(error: Error): void;
}

interface KeyQueue {
  running: Entry | undefined;
  /** Sorted by `seq`: a call validated earlier goes first, whenever its key became known. */
  readonly waiting: Entry[];
}

export class WriteQueue {
  readonly #keys = new Map<string, KeyQueue>();
  readonly #tool: string;
  readonly #timeoutMs: number;
  #next = 0;

  constructor(tool: string = "tool", timeoutMs: number = DEFAULT_SERIALIZE_TIMEOUT_MS) {
    this.#tool = tool;
    // setTimeout fires at once past 2^31 - 1 ms: a longer bound is that one (about 24 days).
    this.#timeoutMs = Math.min(timeoutMs, 2 ** 31 - 1);
  }

  /** The next sequence number: taken when a call's arguments pass validation. */
  take(): number {
    return this.#next++;
  }

  /** Takes a place in `key`'s queue, synchronously, ordered by `seq` (a new number by default). */
  enter(key: string, seq: number = this.take()): QueueTicket {
    let queue = this.#keys.get(key);
    if (queue === undefined) this.#keys.set(key, (queue = { running: undefined, waiting: [] }));
    let start!: () => void;
    let fail!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      start = resolve;
      fail = reject;
    });
    const entry: Entry = { seq, state: "waiting", timer: undefined, start, fail };
    const keyQueue = queue;
    if (keyQueue.running === undefined && keyQueue.waiting.length === 0) this.#run(key, keyQueue, entry);
    else {
      let at = keyQueue.waiting.length;
      while (at > 0 && (keyQueue.waiting[at - 1] as Entry).seq > seq) at--;
      keyQueue.waiting.splice(at, 0, entry);
      entry.timer = unref(setTimeout(() => this.#giveUp(keyQueue, entry), this.#timeoutMs));
    }
    return {
      ready,
      leave: () => {
        if (entry.state === "left") return;
        const wasRunning = entry.state === "running" && keyQueue.running === entry;
        entry.state = "left";
        clearTimeout(entry.timer);
        if (wasRunning) this.#pass(key, keyQueue);
        else {
          // A call that ended before its turn (it failed before writing): it only leaves the line.
          const index = keyQueue.waiting.indexOf(entry);
          if (index >= 0) keyQueue.waiting.splice(index, 1);
          this.#forgetIfIdle(key, keyQueue);
        }
      },
    };
  }

  /** Keys with a write running or waiting. */
  get size(): number {
    return this.#keys.size;
  }

  #run(key: string, queue: KeyQueue, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.state = "running";
    queue.running = entry;
    // A write that never finishes holds its key at most the bound; then the key passes on.
    entry.timer = unref(
      setTimeout(() => {
        if (queue.running !== entry) return;
        process.emitWarning(
          `toolguard: a write of ${this.#tool} held its serializeBy key for more than ${this.#timeoutMs} ms; the next write of that key starts without waiting for it`,
          { type: "ToolguardWarning" },
        );
        this.#pass(key, queue);
      }, this.#timeoutMs),
    );
    entry.start();
  }

  /** The running write is through (or held the key too long): the next one starts. */
  #pass(key: string, queue: KeyQueue): void {
    queue.running = undefined;
    const next = queue.waiting.shift();
    if (next) this.#run(key, queue, next);
    else this.#forgetIfIdle(key, queue);
  }

  #giveUp(queue: KeyQueue, entry: Entry): void {
    if (entry.state !== "waiting") return;
    entry.state = "left";
    const index = queue.waiting.indexOf(entry);
    if (index >= 0) queue.waiting.splice(index, 1);
    entry.fail(new WriteQueueTimeoutError(this.#tool, this.#timeoutMs));
  }

  /** The map holds only keys with writes running or waiting. */
  #forgetIfIdle(key: string, queue: KeyQueue): void {
    if (queue.running === undefined && queue.waiting.length === 0 && this.#keys.get(key) === queue) this.#keys.delete(key);
  }
}

/** A timer that does not keep the process alive by itself. */
function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
