// The idempotency stores and the gate: same key and payload -> one run, then replays; same key,
// other payload -> conflict; a failed run frees the key; concurrent duplicates run once; the
// SQLite store holds across store instances and processes sharing one file.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { IdempotencyGate } from "../../templates/runtime/compose/idempotency-gate.ts";
import { MemoryIdempotencyStore, type IdempotencyStore } from "../../templates/runtime/compose/idempotency-store.ts";
import { openSqliteIdempotencyStore } from "../../templates/runtime/compose/sqlite-idempotency-store.ts";

const tempFile = (name: string): string => path.join(mkdtempSync(path.join(tmpdir(), "toolguard-idem-")), name);

const stores: [string, () => Promise<IdempotencyStore>][] = [
  ["memory", async () => new MemoryIdempotencyStore()],
  ["sqlite", () => openSqliteIdempotencyStore(tempFile("keys.db"))],
];

describe.each(stores)("IdempotencyGate over the %s store", (_name, open) => {
  it("runs a key once, replays the same payload and refuses another", async () => {
    const gate = new IdempotencyGate(await open());
    let runs = 0;
    const execute = () => ({ invoice: `inv_${++runs}` });
    expect(await gate.run("create_invoice", "k1", "fp-a", execute)).toEqual({ kind: "ran", result: { invoice: "inv_1" } });
    expect(await gate.run("create_invoice", "k1", "fp-a", execute)).toEqual({ kind: "replayed", result: { invoice: "inv_1" } });
    expect(await gate.run("create_invoice", "k1", "fp-b", execute)).toEqual({ kind: "conflict", fingerprint: "fp-a" });
    // Keys are per tool.
    expect(await gate.run("refund", "k1", "fp-b", execute)).toEqual({ kind: "ran", result: { invoice: "inv_2" } });
    expect(runs).toBe(2);
  });

  it("frees the key when the run fails, so the same intent may run again", async () => {
    const gate = new IdempotencyGate(await open());
    await expect(gate.run("t", "k", "fp", () => Promise.reject(new Error("backend down")))).rejects.toThrow("backend down");
    expect(await gate.run("t", "k", "fp", () => "second try")).toEqual({ kind: "ran", result: "second try" });
  });

  it("runs concurrent duplicates once", async () => {
    const gate = new IdempotencyGate(await open());
    let runs = 0;
    const slow = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return "done";
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => gate.run("t", "k", "fp", slow)));
    expect(runs).toBe(1);
    expect(results.map((r) => r.kind).sort()).toEqual(["ran", "replayed", "replayed", "replayed", "replayed"]);
    // A concurrent call with another payload waits for the run, then conflicts.
    const [, other] = await Promise.all([gate.run("t", "k2", "fp", slow), gate.run("t", "k2", "fp-other", slow)]);
    expect(other).toEqual({ kind: "conflict", fingerprint: "fp" });
  });
});

describe("MemoryIdempotencyStore", () => {
  it("forgets a result after its time to live", async () => {
    let now = 1_000;
    const gate = new IdempotencyGate(new MemoryIdempotencyStore({ ttlMs: 100, now: () => now }));
    await gate.run("t", "k", "fp", () => 1);
    now += 101;
    expect(await gate.run("t", "k", "fp-other", () => 2)).toEqual({ kind: "ran", result: 2 });
  });
});

describe("the SQLite store across processes", () => {
  it("keeps results in the file for a new store instance", async () => {
    const file = tempFile("keys.db");
    const first = await openSqliteIdempotencyStore(file);
    await new IdempotencyGate(first).run("t", "k", "fp", () => ({ n: 1 }));
    first.close();
    const second = await openSqliteIdempotencyStore(file);
    expect(await new IdempotencyGate(second).run("t", "k", "fp", () => ({ n: 2 }))).toEqual({ kind: "replayed", result: { n: 1 } });
    second.close();
  });

  it("lets exactly one of several processes run a key", async () => {
    const file = tempFile("keys.db");
    (await openSqliteIdempotencyStore(file)).close(); // create the schema before the race
    const script = `
      import { openSqliteIdempotencyStore } from ${JSON.stringify(path.resolve("templates/runtime/compose/sqlite-idempotency-store.ts"))};
      const store = await openSqliteIdempotencyStore(${JSON.stringify(file)});
      const claim = store.claim("t", "shared", "fp");
      if (claim.kind === "run") { await new Promise((r) => setTimeout(r, 50)); store.complete("t", "shared", "fp", process.pid); }
      console.log(claim.kind);
    `;
    const run = () => promisify(execFile)(process.execPath, ["--no-warnings", "--input-type=module", "-e", script]);
    const outputs = await Promise.all([run(), run(), run(), run()]);
    const kinds = outputs.map((o) => o.stdout.trim()).sort();
    expect(kinds.filter((kind) => kind === "run")).toHaveLength(1);
    expect(kinds.every((kind) => ["run", "busy", "replay"].includes(kind))).toBe(true);
  });

  it("lets another process take over a key whose run died holding it", async () => {
    const file = tempFile("keys.db");
    const dead = await openSqliteIdempotencyStore(file, { leaseMs: 10 });
    expect(dead.claim("t", "k", "fp").kind).toBe("run"); // and never completes
    await new Promise((resolve) => setTimeout(resolve, 20));
    const alive = await openSqliteIdempotencyStore(file, { leaseMs: 10 });
    expect(alive.claim("t", "k", "fp").kind).toBe("run");
  });
});
