// Times several contenders in the same process, interleaved: each round runs every contender
// for a batch, in rotating order, so drift (JIT tiers, GC, a noisy neighbour) hits them alike.
// Reported per contender: the median ns per operation over the rounds.
import { median } from "./stats.ts";

export type Contender = () => unknown | Promise<unknown>;

export interface SideBySideOptions {
  readonly rounds?: number;
  /** Operations per batch. */
  readonly batch?: number;
  readonly warmup?: number;
  /**
   * Let the event loop turn after every batch, outside the timed region: work a contender defers
   * (a ledger sink's drain) then runs between batches instead of piling up or landing in another
   * contender's batch. A function is awaited instead (untimed): `() => sink.flush()` finishes
   * that work before the next batch, so a bounded sink's queue never fills across batches.
   */
  readonly settle?: boolean | (() => Promise<unknown>);
  /**
   * Work a contender defers, charged to it: awaited inside its timed batch, after its last
   * operation (`() => sink.flush()`: the ledger lines its calls queued). Its time and CPU then
   * count in that contender's figure, as they count in the process that makes the calls.
   */
  readonly charged?: Readonly<Record<string, () => Promise<unknown>>>;
  /** Also report CPU time (user + system) per operation, as `<name>:cpu`. */
  readonly cpu?: boolean;
}

export async function sideBySide(contenders: Readonly<Record<string, Contender>>, options: SideBySideOptions = {}): Promise<Record<string, number>> {
  // A smoke run (`npm run bench -- --smoke`) only proves the contenders run: one small batch each.
  const smoke = process.env["TOOLGUARD_BENCH_SMOKE"] === "1";
  const { rounds = 15, batch = 5_000, warmup = 3 } = smoke ? { rounds: 1, batch: Math.min(options.batch ?? 20, 20), warmup: 0 } : options;
  const names = Object.keys(contenders);
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  const cpuSamples = new Map<string, number[]>(names.map((name) => [name, []]));
  let sink = 0;
  for (let round = -warmup; round < rounds; round++) {
    // Rotate the order so no contender always runs right after another's garbage.
    const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length] as string);
    for (const name of order) {
      const run = contenders[name] as Contender;
      const cpu = options.cpu ? process.cpuUsage() : undefined;
      const start = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) {
        const result = run();
        // Await only real promises, so synchronous contenders pay no microtask.
        if (result instanceof Promise) {
          if ((await result) !== undefined) sink++;
        } else if (result !== undefined && result !== false) sink++;
      }
      const deferred = options.charged?.[name];
      if (deferred) await deferred();
      const ns = Number(process.hrtime.bigint() - start) / batch;
      if (round >= 0) samples.get(name)?.push(ns);
      if (cpu && round >= 0) {
        const used = process.cpuUsage(cpu);
        cpuSamples.get(name)?.push(((used.user + used.system) * 1000) / batch);
      }
      if (typeof options.settle === "function") await options.settle();
      else if (options.settle) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (sink === 0) throw new Error("side-by-side: no contender produced a result");
  const wall = names.map((name) => [name, median(samples.get(name) ?? [])] as const);
  const cpu = options.cpu ? names.map((name) => [`${name}:cpu`, median(cpuSamples.get(name) ?? [])] as const) : [];
  return Object.fromEntries([...wall, ...cpu]);
}
