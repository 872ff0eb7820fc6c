// Step 4 of a call: resolving reference fields (a name the model can honestly produce) to the
// identifiers the implementation needs. The resolvers themselves arrive with the references
// issue; this hook fixes the step's place in the order, after validation and before the
// idempotency key is minted, so the key and the implementation see resolved arguments.
import type { ReferenceTable } from "./tool-spec.ts";

export function resolveReferences(args: unknown, table: ReferenceTable): unknown {
  void table;
  return args;
}
