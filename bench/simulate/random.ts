// A small seeded generator (mulberry32): the same seed gives the same traffic, on any machine.
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function choose<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)] as T;
}
