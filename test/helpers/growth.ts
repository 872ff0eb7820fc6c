// Speed claims without a clock limit: instead of "this takes under a second" (which fails on a
// loaded machine and passes on a fast one whatever the algorithm), measure the same work at a
// size and at four times that size and check the ratio. Linear work grows about 4x, n log n a
// little more, quadratic work 16x: a limit of 10 tells them apart on any machine, because both
// sizes run on the same machine under the same load. Absolute figures belong in `npm run bench`.

/** Shortest time one measurement at the small size is made to take, so timer noise stays small. */
const MIN_SAMPLE_MS = 20;

/**
 * How much longer `work` takes at `4 * size` than at `size`. Work too quick to time well is
 * repeated (the same number of times at both sizes) until one sample at `size` takes 20 ms;
 * each size keeps the best of `runs` samples, which discards pauses caused by other processes.
 */
export async function growthOver4x(work: (size: number) => unknown, size: number, runs = 3): Promise<number> {
  const sample = async (n: number, repeats: number): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < repeats; i++) await work(n);
    return performance.now() - started;
  };
  let repeats = 1;
  // The first sample also warms up: it pays for compilation, not for the size.
  while ((await sample(size, repeats)) < MIN_SAMPLE_MS && repeats < 1 << 16) repeats *= 2;
  const best = async (n: number): Promise<number> => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < runs; run++) fastest = Math.min(fastest, await sample(n, repeats));
    return fastest;
  };
  const small = await best(size);
  const large = await best(4 * size);
  return large / small;
}

/** The limit on `growthOver4x` for work that must not grow faster than n log n. */
export const LINEAR_GROWTH_LIMIT = 10;
