// A worker process for ledger.test.ts: 8 loops of calls through a guarded tool whose ledger is in
// PostgreSQL, failing and valid calls mixed, each on a turn of its own; prints a call's turn once
// its outcome has returned, and goes on until it is killed. `durable` (the default) makes every
// outcome wait for its entry; `write-through` leaves the guard's defaults, where only the failure
// entries are waited for (the write-through rule, docs/ledger.md).
import { openPostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice } from "../../generated/index.js";
import { INVALID, VALID } from "../adapters/invoice-script.ts";

const [url, mode = "durable"] = process.argv.slice(2) as [string, string?];
const stores = await openPostgresStores(url, { ledger: { batchSize: 7 } });
const tool = createInvoice.implement(() => ({ invoice: "inv_1" }), {
  ledger: stores.ledger,
  durable: mode === "durable",
  resolvers: { customer: (text) => (text === "Acme BV" ? [{ id: "cus_00181", label: "Acme BV (Rotterdam)" }] : []) },
});
let next = 0;
async function loop(): Promise<never> {
  for (;;) {
    const index = next++;
    const turn = `kill:${process.pid}:${index}`;
    const outcome = await tool.call(index % 3 === 0 ? VALID : INVALID, { turn });
    process.stdout.write(`${outcome.status} ${turn}\n`);
  }
}
await Promise.all(Array.from({ length: 8 }, loop));
