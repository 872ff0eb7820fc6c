// How generation keeps its heaps small on large descriptions. An emit worker's garbage grows by
// hundreds of megabytes per tool on an interlinked description (Elasticsearch's query DSL: each
// tool compiles and prints the whole cycle), and V8 lets a heap double before it collects: two
// workers then held ~550 MB each, most of it garbage of tools already sent back. Two measures,
// both memory for a little CPU:
//
// - between tools, a worker collects its garbage itself once its heap is large and has grown
//   since the last time (HeapKeeper), so that the next tool starts from what is live;
// - while the workers emit, V8 lets a heap grow by half, not double, before collecting
//   (lowerHeapGrowth); the flag is the process's, so it is restored when the tools are done.
import v8 from "node:v8";
import vm from "node:vm";

/** Below this, a worker's heap is left to V8: small sets never pay for a forced collection. */
export const COLLECT_ABOVE_BYTES = 192 * 1024 * 1024;

/** ...and above it, a forced collection waits until the heap has grown this much since the last. */
export const COLLECT_AFTER_GROWTH_BYTES = 64 * 1024 * 1024;

/** How much a heap may grow between collections while the workers emit: 1.5x (V8 picks its own factor, up to 4x). */
const EMIT_HEAP_GROWING_PERCENT = 50;

export interface HeapKeeperOptions {
  readonly aboveBytes?: number;
  readonly afterGrowthBytes?: number;
  /** The heap's size in use (V8's `used_heap_size`). */
  readonly used?: () => number;
  /** A full collection. */
  readonly collect?: () => void;
}

/** Decides, after each item a worker handles, whether to collect its garbage now. */
export class HeapKeeper {
  readonly #above: number;
  readonly #growth: number;
  readonly #used: () => number;
  readonly #collect: () => void;
  /** The heap's size after the last forced collection (0 before the first). */
  #base = 0;
  #collections = 0;

  constructor(options: HeapKeeperOptions = {}) {
    this.#above = options.aboveBytes ?? COLLECT_ABOVE_BYTES;
    this.#growth = options.afterGrowthBytes ?? COLLECT_AFTER_GROWTH_BYTES;
    this.#used = options.used ?? (() => v8.getHeapStatistics().used_heap_size);
    this.#collect = options.collect ?? fullCollection();
  }

  /** Collects when the heap is past the threshold and has grown enough since the last collection; says whether it did. */
  afterItem(): boolean {
    const used = this.#used();
    if (used < this.#above || used - this.#base < this.#growth) return false;
    this.#collect();
    this.#collections++;
    this.#base = this.#used();
    return true;
  }

  /** How many collections this keeper forced. */
  get collections(): number {
    return this.#collections;
  }
}

let gc: (() => void) | undefined;

/**
 * V8's full collection, made callable without starting Node with `--expose-gc`: setting the flag
 * at run time exposes `gc` to contexts created afterwards, such as a `vm` context's, and the
 * function collects the whole isolate's heap, this thread's, whichever context it came from.
 */
function fullCollection(): () => void {
  return () => {
    if (gc === undefined) {
      v8.setFlagsFromString("--expose-gc");
      gc = vm.runInNewContext("gc") as () => void;
    }
    gc();
  };
}

/**
 * Lets heaps grow by half between collections until the returned function is called. Left alone
 * when Node was started with the flag: that choice is the user's.
 */
export function lowerHeapGrowth(): () => void {
  const options = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (options.some((option) => /^--heap[-_]growing[-_]percent/.test(option))) return () => {};
  v8.setFlagsFromString(`--heap-growing-percent=${EMIT_HEAP_GROWING_PERCENT}`);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    v8.setFlagsFromString("--heap-growing-percent=0");
  };
}
