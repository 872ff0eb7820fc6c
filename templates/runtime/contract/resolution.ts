// What reference resolution deals in, shared by the public API (a resolver returns candidates),
// the resolve stage (which makes resolutions) and the ledger (which records both). Types only.

/** A candidate a resolver found for a reference. */
export interface Candidate {
  readonly id: string;
  readonly label: string;
}

/** A reference field resolved to an identifier: recorded in the ledger, applied to the arguments. */
export interface Resolution {
  /** JSON Pointer of the reference field in the model's arguments. */
  readonly path: string;
  /** What the model wrote there. */
  readonly text: string;
  readonly id: string;
  /** The property the identifier was written to, beside the reference field. */
  readonly target: string;
}
