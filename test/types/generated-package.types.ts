// Compile-time tests of the generated package, checked by `tsc` in `npm test` (this file is
// never run). Each `@ts-expect-error` is an assertion: if the marked line ever compiles, tsc
// reports the directive as unused and the suite fails.
import {
  createInvoice,
  searchTickets,
  tools,
  updateOrgChart,
  type CreateInvoiceResolvedArgs,
  type Implementation,
  type SearchTicketsArgs,
  type UpdateOrgChartArgs,
  type Validated,
} from "../../generated/index.js";

const resolvers = { customer: async (_text: string) => [{ id: "cus_1", label: "Acme BV" }] };

// The implementation receives the resolved identifier, never the model's text.
const createImpl: Implementation<CreateInvoiceResolvedArgs, string> = (args) => {
  const id: string = args.customer_id;
  // @ts-expect-error the reference field itself is not what the implementation gets
  void args.customer_ref;
  return `${id}:${args.amount}${args.currency}`;
};
export const guardedInvoice = createInvoice.implement(createImpl, { resolvers });

// 1. The implementation cannot be called with a plain object: only the guard mints Validated.
createImpl(
  // @ts-expect-error a plain object is not Validated<CreateInvoiceResolvedArgs>
  { amount: 1, currency: "EUR", customer_id: "cus_1", line_items: [{ sku: "SKU-1", quantity: 1, unit_price: 1 }] },
  { tool: "create_invoice", turn: "t", idempotencyKey: "k" },
);

// 2. An implementation of the wrong argument type cannot be bound. (Types are structural: an
// implementation whose parameter accepts a wider type, such as all-optional fields, can.)
// @ts-expect-error update_org_chart's arguments are not create_invoice's
createInvoice.implement((args: Validated<UpdateOrgChartArgs>) => args.root.name, { resolvers });
// @ts-expect-error nor is a parameter type that disagrees on a shared field
createInvoice.implement((args: Validated<{ amount: string }>) => args.amount, { resolvers });
export const wide = createInvoice.implement((args: Validated<SearchTicketsArgs>) => args.query, { resolvers });

// 3. A tool with references cannot be bound without its resolvers.
// @ts-expect-error resolvers for "customer" are required
createInvoice.implement(createImpl);
// @ts-expect-error a resolver for every reference kind, by name
createInvoice.implement(createImpl, { resolvers: { client: resolvers.customer } });

// 4. A tool without references binds with the implementation alone.
export const guardedSearch = searchTickets.implement((args) => args.page?.size ?? 25);
export const guardedOrgChart = updateOrgChart.implement((args) => args.root.subteams?.map((team) => team.name) ?? []);

// 5. `call` is the only way in, and what it returns is a union the caller must narrow.
export async function useIt(): Promise<number> {
  const outcome = await guardedSearch.call('{"query": "refund"}', { turn: "turn-1" });
  // @ts-expect-error result exists only once the status says ok
  void outcome.result;
  if (outcome.status === "ok") return outcome.result;
  // @ts-expect-error a turn is required: it is what bounds the repair loop
  await guardedSearch.call("{}", {});
  return outcome.status === "validation_failed" ? outcome.errors.length : -1;
}

// 6. The `tools` record is keyed by the tool's name and typed per tool.
export const sameTool: typeof createInvoice = tools.create_invoice;
// @ts-expect-error only generated tools are in the record
void tools.delete_everything;
