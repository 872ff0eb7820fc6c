// The known, counted, named failures of the sample (known-failures.json): what the oracles find
// today in each sample document, one line per failure with its cause. The sample test fails on a
// failure not listed and reports a listed one that no longer occurs; after a fix lands,
// `npm run corpus -- --update-known` rewrites the list from a fresh run of the sample.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { causeOf } from "./judge-document.ts";
import type { RunResult } from "./report.ts";
import { ROOT } from "./sources.ts";

export const KNOWN_FAILURES_FILE = path.join(ROOT, "test/corpus/known-failures.json");

/** Per manifest id: the failures, each `<oracle>: <what>`, sorted. */
export type KnownFailures = Readonly<Record<string, readonly string[]>>;

/** The failures one result shows, as stable lines (no timings, no instance text). */
export function failuresOf(result: RunResult): string[] {
  if ("harnessError" in result) return [`harness error: ${causeOf(result.harnessError.split("\n")[0]!)}`];
  const out = new Set<string>();
  if (result.status === "internal-error") out.add(`internal error: ${causeOf(result.internalError!.split("\n")[0]!)}`);
  for (const cause of Object.keys(result.refusal?.causes ?? {})) out.add(`refused whole: ${cause}`);
  if (result.status === "generated" && result.tools === 0) out.add("0 tools");
  if (result.importError) out.add(`does not import: ${causeOf(result.importError.split("\n")[0]!)}`);
  if (result.typecheck && !result.typecheck.ok) out.add("does not type-check");
  for (const tool of result.oracle.falseRejectionTools) out.add(`false rejection: ${tool}`);
  if (result.oracle.unhelpfulEnvelopes > 0) out.add("envelope that does not say what to send");
  if ((result.oracle.notSendableUnhelpful ?? 0) > 0) out.add("not-sendable call accepted, or refused without naming its path argument");
  for (const cause of Object.keys(result.oracle.unjudged)) out.add(`unjudged: ${cause}`);
  return [...out].sort();
}

export function readKnownFailures(): KnownFailures {
  return JSON.parse(readFileSync(KNOWN_FAILURES_FILE, "utf8")) as KnownFailures;
}

export function writeKnownFailures(results: readonly RunResult[]): KnownFailures {
  const known: Record<string, string[]> = {};
  for (const result of [...results].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const failures = failuresOf(result);
    if (failures.length > 0) known[result.id] = failures;
  }
  writeFileSync(KNOWN_FAILURES_FILE, `${JSON.stringify(known, null, 2)}\n`);
  return known;
}

/** New failures (not listed) and fixed ones (listed, no longer seen), per id. */
export function compareWithKnown(results: readonly RunResult[], known: KnownFailures): { added: string[]; fixed: string[] } {
  const added: string[] = [];
  const fixed: string[] = [];
  for (const result of results) {
    const now = new Set(failuresOf(result));
    const before = new Set(known[result.id] ?? []);
    for (const failure of now) if (!before.has(failure)) added.push(`${result.id}: ${failure}`);
    for (const failure of before) if (!now.has(failure)) fixed.push(`${result.id}: ${failure}`);
  }
  return { added, fixed };
}
