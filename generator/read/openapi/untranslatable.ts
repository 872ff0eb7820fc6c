// Raised while translating an operation when part of it cannot become a faithful argument
// schema. The reader turns it into a skip (or, with --strict, a failure); it never escapes.

export class Untranslatable extends Error {
  /** JSON Pointer of the offending node in the OpenAPI document. */
  readonly pointer: string;

  constructor(pointer: string, reason: string) {
    super(reason);
    this.name = "Untranslatable";
    this.pointer = pointer;
  }
}
