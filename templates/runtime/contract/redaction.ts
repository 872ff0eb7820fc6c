// How a guard redacts its ledger entries: an option of the public API, applied by ledger/redact.ts.

/** How a guard redacts its ledger entries. `false` turns redaction off. */
export type RedactionOptions =
  | false
  | {
      /** More field names, matched like the defaults (folded, as a suffix). */
      readonly fields?: readonly string[];
      /** Use only `fields`, not `DEFAULT_SECRET_NAMES`. */
      readonly replaceDefaults?: boolean;
      /** More JSON Pointers to redact, `*` standing for any one token. */
      readonly pointers?: readonly string[];
      /** Also redact the schema's `writeOnly` properties. Default true. */
      readonly writeOnly?: boolean;
    };
