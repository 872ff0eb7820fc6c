// A ledger writer in its own process, for the multi-process and crash tests (run with the
// pinned node: `process.execPath` of the test). Modes:
//   append <path> <count> <chars> <tag> <startAt>   appends <count> entries whose raw text is <chars>
//                                         long, starting at <startAt> (ms since the epoch), so that
//                                         two writers started apart still overlap
//   rotate <path> <count> <tag> <startAt>  appends <count> small entries to a ledger rotated every 32 KiB
//                                         (2 files kept), one in 8 written through (`appendNow`, the
//                                         failure path), then prints its sink's stats as JSON
//   durable <path> <count>                guarded calls in durable mode; prints "ok <i>" after each outcome
//   queued <path> <count>                 the same without durable mode, maxQueue 100
//   failing <path> <count> <tag>          per i: an invalid call, its repair, a clean call (default sink
//                                         options); prints "failed <i>" and "repaired <i>" as those outcomes return
//   exit <cwd>                            one call through the default sink, then process.exit(0)
//   sigterm <path> <count>                <count> calls, hooks SIGTERM, prints "ready", waits
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { flushLedgerOnSignals } from "../../templates/runtime/ledger/exit-hooks.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

const [mode = "", target = "", countText = "0", charsText = "0", tag = "", startAt = "0"] = process.argv.slice(2);
const count = Number(countText);
const invoice = (i: number): string => JSON.stringify({ ...validInvoice, amount: i + 1 });

if (mode === "append") {
  const sink = new JsonlFileSink({ path: target, sync: false, maxEntryBytes: 1e9 });
  const raw = "x".repeat(Number(charsText));
  await new Promise((done) => setTimeout(done, Math.max(0, Number(startAt) - Date.now())));
  for (let i = 0; i < count; i++) {
    sink.append({
      v: 1,
      chain: `${tag}-${i}`,
      tool: "t",
      turn: `${tag}-${i}`,
      startedAt: "2026-01-01T00:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw, errors: [], coercions: [], guardMs: 0 }],
      repairs: 0,
    });
    // One entry per turn of the event loop: every entry is its own write, the worst case for interleaving.
    await new Promise((done) => setImmediate(done));
  }
  await sink.close();
} else if (mode === "rotate") {
  const sink = new JsonlFileSink({ path: target, sync: false, maxFileBytes: 32 * 1024, maxFiles: 2 });
  const raw = "r".repeat(200);
  await new Promise((done) => setTimeout(done, Math.max(0, Number(tag) - Date.now())));
  for (let i = 0; i < count; i++) {
    const entry = {
      v: 1,
      chain: `${charsText}-${i}`,
      tool: "t",
      turn: `${charsText}-${i}`,
      startedAt: "2026-01-01T00:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw, errors: [], coercions: [] }],
      repairs: 0,
    } as const;
    // The synchronous write-through path rotates too, between the asynchronous slices.
    if (i % 8 === 7) sink.appendNow(entry);
    else sink.append(entry);
    // A few entries per turn: slices of a few lines, many writes and rotations racing the other writers'.
    if (i % 4 === 3) await new Promise((done) => setImmediate(done));
  }
  process.stdout.write(`${JSON.stringify(await sink.close())}\n`);
} else if (mode === "durable") {
  const ledger = new JsonlFileSink({ path: target });
  const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger, durable: true });
  for (let i = 0; i < count; i++) {
    await tool.call(invoice(i), { turn: `turn-${i}` });
    process.stdout.write(`ok ${i}\n`);
  }
} else if (mode === "queued") {
  const ledger = new JsonlFileSink({ path: target, maxQueue: 100 });
  const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
  for (let i = 0; i < count; i++) {
    await tool.call(invoice(i), { turn: `turn-${i}` });
    process.stdout.write(`ok ${i}\n`);
  }
} else if (mode === "failing") {
  const ledger = new JsonlFileSink({ path: target });
  const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
  for (let i = 0; i < count; i++) {
    const turn = `${charsText}-${i}`;
    const failed = await tool.call(JSON.stringify({ ...validInvoice, currency: "usd" }), { turn });
    if (failed.status !== "validation_failed") throw new Error(`expected validation_failed, got ${failed.status}`);
    process.stdout.write(`failed ${i}\n`);
    const repaired = await tool.call(invoice(i), { turn });
    if (repaired.status !== "ok") throw new Error(`expected ok, got ${repaired.status}`);
    process.stdout.write(`repaired ${i}\n`);
    await tool.call(invoice(i), { turn: `${turn}-clean` });
  }
} else if (mode === "exit") {
  process.chdir(target);
  const tool = defineTool(invoiceSpec()).implement(() => "done");
  await tool.call(invoice(0), { turn: "exit-turn" });
  process.exit(0);
} else if (mode === "sigterm") {
  const ledger = new JsonlFileSink({ path: target });
  flushLedgerOnSignals([ledger]);
  const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
  // Queued, not yet written: the outcomes resolve before the sink's first write completes.
  await Promise.all(Array.from({ length: count }, (_, i) => tool.call(invoice(i), { turn: `turn-${i}` })));
  process.stdout.write("ready\n");
  setInterval(() => undefined, 1000);
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
