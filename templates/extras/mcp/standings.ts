// Where one tool stands with one caller, in this process: which chain the caller is on (the
// guard's turn), and since when its last counted failure. One map for every server in the
// process, so that stateless HTTP (a new server per request) keeps its chains.

/** One caller's chain at one tool. */
export interface Standing {
  /** Counts the chains so far; part of the turn, so a new chain is a new turn for the guard. */
  epoch: number;
  /** When the chain's last counted failure finished; `undefined` while it has not failed. */
  failedAt: number | undefined;
  /** The chain was refused: failing calls are refused until the window after `failedAt` passes. */
  refused: boolean;
}

/** Callers x tools remembered; the least recently called is forgotten first. */
const MAX_STANDINGS = 10_000;
const STANDINGS = new Map<string, Standing>();

/** The standing of `key` now: a new chain once the window after its last counted failure has passed. */
export function standingOf(key: string, now: number, windowMs: number): Standing {
  const standing = STANDINGS.get(key) ?? { epoch: 0, failedAt: undefined, refused: false };
  if (standing.failedAt !== undefined && now - standing.failedAt > windowMs) {
    standing.epoch++;
    standing.failedAt = undefined;
    standing.refused = false;
  }
  STANDINGS.delete(key);
  STANDINGS.set(key, standing);
  if (STANDINGS.size > MAX_STANDINGS) STANDINGS.delete(STANDINGS.keys().next().value as string);
  return standing;
}

/** The guard's turn for a caller's current chain at a tool. */
export function turnOf(caller: string, tool: string, standing: Standing): string {
  return `mcp:${caller}:${tool}:${standing.epoch}`;
}
