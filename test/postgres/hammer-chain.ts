// A worker process for chains.test.ts: waits for "go" on stdin, then counts `count` failures of
// one chain at once through the PostgreSQL counter and prints each tally as one JSON line.
import { createInterface } from "node:readline";
import { openPostgresStores } from "../../generated/extras/postgres/index.js";

const [url, key, count] = process.argv.slice(2) as [string, string, string];
const stores = await openPostgresStores(url);
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== "go") continue;
  const tallies = await Promise.all(Array.from({ length: Number(count) }, () => stores.chains.fail(key, 2, 60_000)));
  process.stdout.write(`${JSON.stringify(tallies)}\n`);
  break;
}
await stores.close();
process.exit(0); // stdin stays open otherwise
