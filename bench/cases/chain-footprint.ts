// Memory per open repair chain, in one process: N turns each left open by one failed attempt of
// the invoice (six mistakes), heap measured after full collections every 1,000 chains. The
// attempts' texts are made before the first measurement, so what is counted is what the guard
// keeps. Run: npx node --expose-gc bench/cases/chain-footprint.ts [N]   (prints one JSON line)
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { invoiceSpec, validInvoice } from "../../test/runtime/invoice-spec.ts";

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with --expose-gc");
const sink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
const tool = defineTool(invoiceSpec()).implement(() => undefined, { ledger: sink });
const bad = { ...validInvoice, amount: "12,99x", currency: "eur", extra: 1, line_items: [{ sku: 1, quantity: 0 }] };
const chains = Number(process.argv[2] ?? 5000);
const texts = Array.from({ length: chains }, (_, index) => JSON.stringify({ ...bad, memo: `m${index}` }));
const heap = (): number => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};
for (let index = 0; index < 3000; index++) await tool.call(texts[index % 10], { turn: "warm" });
const base = heap();
const perChain: number[] = [];
for (let index = 0; index < chains; index++) {
  const outcome = await tool.call(texts[index], { turn: `turn-${index}` });
  if (outcome.status !== "validation_failed") throw new Error(`expected an open chain, got ${outcome.status}`);
  if ((index + 1) % 1000 === 0) perChain.push(Math.round((heap() - base) / (index + 1)));
}
console.log(JSON.stringify({ chains, bytesPerOpenChain: perChain }));
