// Chain ids: UUID-shaped, unique across processes and restarts, cheap to mint. Each process
// (each load of this module) draws one random version-4 UUID and keeps its first 74 random bits
// (the first four groups); a chain's id is that prefix with a counter in the last group.
//
// Why it is safe: two processes share ids only when their 74 random bits collide, which for n
// processes writing one ledger has probability about n² / 2⁷⁵ (a million processes: 3e-11). A
// restart draws a new prefix. Within a process the counter never repeats: past 2⁴⁸ ids a new
// prefix is drawn. The ids are predictable within a process; nothing uses them as secrets (they
// only group one chain's entries). `crypto.randomUUID()` per chain cost a tenth of a line.
//
// The ledger line writes a minted id as bytes, from the prefix and the counter (entry-text.ts),
// without making its text: `mintChain` and `chainPrefix` give the two, `chainIdOf` the text.

let prefix = "";
let counter = 2 ** 48;

/** Mints an id and returns its counter; its prefix is `chainPrefix()` until the next mint. */
export function mintChain(): number {
  if (counter >= 2 ** 48) {
    prefix = crypto.randomUUID().slice(0, 24);
    counter = 0;
  }
  return counter++;
}

/** The prefix of the id `mintChain` returned last: `xxxxxxxx-xxxx-4xxx-yxxx-`. */
export function chainPrefix(): string {
  return prefix;
}

/** The id of `counter` under `idPrefix`: the prefix, then the counter as 12 hex digits. */
export function chainIdOf(idPrefix: string, idCounter: number): string {
  const digits = idCounter.toString(16);
  return idPrefix + "000000000000".slice(digits.length) + digits;
}

/** A fresh chain id: `xxxxxxxx-xxxx-4xxx-yxxx-` of this process, then 12 hex digits of a counter. */
export function chainId(): string {
  const minted = mintChain();
  return chainIdOf(prefix, minted);
}
