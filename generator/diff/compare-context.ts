// The state one schema comparison carries: both roots (to follow `$ref`s), the changes found,
// and the pairs of locations already compared, so recursive definitions end and a definition
// used in many places is reported once, at the first place it is reached.
import type { Schema } from "../schema-walk.ts";
import type { Change, ChangeKind, Impact } from "./change.ts";

/** Where a pair of nodes sits: in the arguments, and in each side's schema. */
export interface At {
  readonly path: string;
  readonly oldPointer: string;
  readonly newPointer: string;
}

export interface CompareContext {
  readonly oldRoot: Schema;
  readonly newRoot: Schema;
  readonly changes: Change[];
  readonly seen: Set<string>;
  /** Compares two subschemas (resolving their references) at `at`. */
  compare(oldNode: unknown, newNode: unknown, at: At): void;
  /** The changes between two subschemas, found aside: nothing is recorded. */
  trial(oldNode: unknown, newNode: unknown, at: At): Change[];
}

export interface Finding {
  readonly keyword: string;
  readonly toolTeams: Impact;
  readonly models: Impact;
  readonly message: string;
  readonly kind?: ChangeKind;
  /** Point at the old schema (the keyword is gone from the new one). */
  readonly inOld?: boolean;
  /** The place in the arguments, when it is not `at.path` (a field of the object at `at`). */
  readonly path?: string;
}

/** Records a change at `at`, its schema pointer naming the keyword. */
export function report(ctx: CompareContext, at: At, finding: Finding): void {
  const base = finding.inOld ? at.oldPointer : at.newPointer;
  ctx.changes.push({
    path: finding.path ?? at.path,
    schemaPointer: finding.keyword ? `${base}/${finding.keyword}` : base,
    keyword: finding.keyword,
    kind: finding.kind ?? "schema",
    toolTeams: finding.toolTeams,
    models: finding.models,
    message: finding.message,
  });
}

/** `at` moved one step down: `argToken` into the arguments (none for a combinator branch), `schemaTokens` into each schema. */
export function below(at: At, argToken: string | undefined, oldTokens: string, newTokens: string = oldTokens): At {
  return {
    path: argToken === undefined ? at.path : `${at.path}/${argToken}`,
    oldPointer: `${at.oldPointer}/${oldTokens}`,
    newPointer: `${at.newPointer}/${newTokens}`,
  };
}

/** How a place in the arguments is named in messages. */
export function where(path: string): string {
  return path === "" ? "the arguments" : path;
}
