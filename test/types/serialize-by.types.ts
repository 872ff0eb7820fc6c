// Compile-time test (checked by `tsc` in `npm test`, never run): `serializeBy` receives the
// resolved arguments, so a write is keyed by the identifier a resolver found (docs/composition.md).
import { createInvoice } from "../../generated/index.js";

export const byCustomer = createInvoice.implement(() => "ok", {
  resolvers: { customer: () => [] },
  serializeBy: (args) => args.customer_id,
});

export const byWords = createInvoice.implement(() => "ok", {
  resolvers: { customer: () => [] },
  // @ts-expect-error The model's words are resolved away before the key is taken.
  serializeBy: (args) => args.customer_ref,
});
