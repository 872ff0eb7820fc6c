// A worker process for idempotency.test.ts: waits for "go", then sends `count` identical calls
// at once through a guarded tool whose idempotency records are in PostgreSQL, and whose
// implementation writes a row (the side effect that must happen once). Prints the outcomes.
import { createInterface } from "node:readline";
import { openPostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice } from "../../generated/index.js";
import { VALID } from "../adapters/invoice-script.ts";

const [url, count, amount] = process.argv.slice(2) as [string, string, string];
const stores = await openPostgresStores(url);
const tool = createInvoice.implement(
  async (args) => {
    await stores.sql`INSERT INTO invoice_runs (pid, customer) VALUES (${process.pid}, ${args.customer_id})`;
    await stores.sql`SELECT pg_sleep(0.2)`; // long enough for every duplicate to arrive while it runs
    return { invoice: `inv_${process.pid}` };
  },
  {
    idempotency: { store: stores.idempotency, keyOf: (args) => args.customer_id },
    resolvers: { customer: (text) => (text === "Acme BV" ? [{ id: "cus_00181", label: "Acme BV (Rotterdam)" }] : []) },
  },
);
const args = VALID.replace("1299,", `${amount},`);
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== "go") continue;
  const outcomes = await Promise.all(Array.from({ length: Number(count) }, (_, index) => tool.call(args, { turn: `dup:${process.pid}:${index}` })));
  process.stdout.write(
    `${JSON.stringify(outcomes.map((outcome) => ({ status: outcome.status, result: outcome.status === "ok" ? outcome.result : undefined })))}\n`,
  );
  break;
}
await stores.close();
process.exit(0); // stdin stays open otherwise
