// Speed claims without a clock limit: instead of "this takes under a second" (which fails on a
// loaded machine and passes on a fast one whatever the algorithm), time the same work at a size
// and at eight times that size and check the ratio. Linear work grows about 8x, n log n a little
// more, quadratic work 64x: a limit of 24 tells them apart with a wide margin either side,
// because both sizes run on the same machine. Time is this process's CPU time, which other
// processes do not inflate (wall time on a loaded machine stretches long samples more than
// short ones), and the samples of the two sizes interleave.
// Absolute figures belong in `npm run bench`.

/** How many times larger the second size is. */
export const GROWTH_FACTOR = 8;

/** The limit on `growth` for work that must not grow faster than n log n. */
export const LINEAR_GROWTH_LIMIT = 24;

/** Shortest time one sample at the small size is made to take, so timer noise stays small. */
const MIN_SAMPLE_MS = 20;

/**
 * How much longer `work` takes at `GROWTH_FACTOR * size` than at `size`. Work too quick to time
 * well is repeated (the same number of times at both sizes) until one sample at `size` takes
 * 20 ms of CPU. Samples of the two sizes alternate, and each size keeps its best of `runs`, which
 * discards pauses caused by other processes.
 */
export async function growth(work: (size: number) => unknown, size: number, runs = 5): Promise<number> {
  const sample = async (n: number, repeats: number): Promise<number> => {
    const started = process.cpuUsage();
    for (let i = 0; i < repeats; i++) await work(n);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  };
  let repeats = 1;
  // The first samples also warm up: they pay for compilation, not for the size.
  while ((await sample(size, repeats)) < MIN_SAMPLE_MS && repeats < 1 << 16) repeats *= 2;
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    small = Math.min(small, await sample(size, repeats));
    large = Math.min(large, await sample(GROWTH_FACTOR * size, repeats));
  }
  return large / small;
}
