// A first-attempt, valid ledger entry for tests of the sink, the files and the readers: the
// least entry the format accepts, its turn and raw text chosen by the test.
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";

export function okEntry(turn: string, raw = ""): LedgerEntry {
  return {
    v: 1,
    chain: `c-${turn}`,
    tool: "t",
    turn,
    startedAt: "2026-01-01T00:00:00.000Z",
    verdict: "ok",
    attempts: [{ raw, errors: [], coercions: [], guardMs: 0 }],
    repairs: 0,
  };
}
