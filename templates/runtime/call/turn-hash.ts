// The hash of the chain store's index of open turns (open-turns.ts), seeded per process.

/** A key's hash under a seed: any 32-bit integer (0 is then made 1: 0 marks an empty slot). */
export type KeyHash = (key: string, seed: number) => number;

/**
 * FNV-1a over the UTF-16 code units, from the seed, then murmur3's finaliser so every bit of the
 * hash depends on every bit of the state (the table's slot is the hash's low bits).
 */
export const seededHash: KeyHash = (key, seed) => {
  let hash = seed ^ 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
};

/** A seed of 32 random bits. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] as number;
}
