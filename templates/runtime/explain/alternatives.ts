// A failed union reported once, or through the errors of the branch the value was meant for.
import type { AjvError, HintTable, SchemaHint } from "../contract/tool-spec.ts";
import { locate } from "./location.ts";
import { optionalAt } from "./optional.ts";
import { otherTypeReading } from "./rules/union-reading.ts";
import { fieldEntries, HiddenValue, isRecord, shownAt, typeOf } from "./text.ts";

/**
 * A failed `anyOf`/`oneOf` makes ajv report every branch's errors, which reads as contradictory
 * demands. Keep the combinator's own error and drop everything reported inside its branches;
 * drop the bookkeeping `if` error whose `then`/`else` errors are reported anyway. Where the
 * union is discriminated and the value names a branch (`"type": "pull_request"`), that branch's
 * errors are the ones the model needs: they are kept instead of the combinator's.
 *
 * toolguard's validators say which errors the branches left (`branchErrors`, `branchStarts`:
 * see generator/emit/union-errors.ts); schema paths cannot, since a `$ref` branch reports paths
 * under its own definition. A validator without them (compiled by plain ajv) is read by schema
 * path: errors under the union's own path.
 */
export function collapseAlternatives(errors: readonly AjvError[], document: unknown, hints: HintTable): readonly AjvError[] {
  let dropped: Uint8Array | undefined;
  let prefixes: string[] | undefined;
  let bookkeeping = false;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i] as AjvError;
    if (error.keyword === "anyOf" || error.keyword === "oneOf") {
      const count = error.params["branchErrors"];
      if (typeof count !== "number") {
        (prefixes ??= []).push(`${error.schemaPath}/`);
        continue;
      }
      dropped ??= new Uint8Array(errors.length);
      const from = Math.max(0, i - count);
      const branch = branchErrors(error, from, i, chosenBranch(error, document, hints, { errors, from, to: i }));
      if (branch === undefined || !keepOnly(dropped, from, i, branch)) dropped.fill(1, from, i);
      else dropped[i] = 1; // the branch's own errors say it better than "matches none"
    } else if (error.keyword === "if") bookkeeping = true;
  }
  if (dropped === undefined && prefixes === undefined && !bookkeeping) return errors; // the usual case: nothing to drop
  return errors.filter(
    (error, i) => dropped?.[i] !== 1 && error.keyword !== "if" && !(prefixes?.some((prefix) => error.schemaPath.startsWith(prefix)) ?? false),
  );
}

/** The errors a union collected from its branches: `errors[from, to)`, directly before the union's own. */
interface Span {
  readonly errors: readonly AjvError[];
  readonly from: number;
  readonly to: number;
}

/**
 * The branch the value was meant for, or -1: the one its discriminator names; else the only one
 * accepting its JSON type (`3` against a number-or-null union is a number that broke the number
 * branch's rule); else the only one knowing some of its property names (a member sent without
 * its discriminator). All three lists were computed at build time.
 */
function chosenBranch(error: AjvError, document: unknown, hints: HintTable, span: Span): number {
  const location = locate(error, hints);
  const hint = location.hint;
  const value = shownAt(document, error.instancePath);
  if (hint.discriminator !== undefined) {
    const named = namedBranch(hint.discriminator, value);
    if (named !== undefined && named >= 0 && hint.memberKeys !== undefined) {
      // A tag naming one kind beside fields only another kind has: which is wrong is for the
      // union's own message to say (rules/union.ts), not the named kind's errors.
      const inferred = inferredBranch(hint, value);
      return inferred !== undefined && inferred !== named ? -1 : named;
    }
    if (named !== undefined) return named;
  }
  // A tag no member requires (pydantic's `role: Literal["system"] = "system"`), held with one
  // member's value, names that member as a required tag would: no other member takes the value.
  // Beside fields only another member has, those fields' member stands, as before (the tag is wrong).
  const tagged = hint.optionalTag === undefined ? undefined : namedBranch(hint.optionalTag, value);
  if (tagged !== undefined && tagged >= 0) {
    const inferred = inferredBranch(hint, value);
    if (inferred === undefined || inferred === tagged) return tagged;
  }
  // A text that carries another branch's value (`"+5"` for an integer-or-"all") is the union's to explain.
  if (typeof value === "string" && otherTypeReading(location, value, optionalAt(hint, error.instancePath)) !== undefined) return -1;
  return inferredBranch(hint, value) ?? shapeFittingBranch(error, span, value) ?? -1;
}

/**
 * The one object branch whose shape the value has, when its names single none out (octocode's
 * file reads: five closed members sharing their fields, told apart by what each requires and by
 * `const` fields): the only branch whose errors all lie inside the value's fields, so it holds
 * every field the branch requires, no field the branch does not declare, and each of its one-value
 * fields as the branch fixes it. Its errors are then the value's own (`"minify": "symbolsed"`);
 * any other branch would first need a field added or removed. Read from the branches' errors
 * (`branchStarts`), so nothing is stored for it.
 */
function shapeFittingBranch(error: AjvError, { errors, from, to }: Span, value: unknown): number | undefined {
  const starts = error.params["branchStarts"];
  // A `oneOf` that more than one branch passed is ambiguous, not broken: no branch is the one meant.
  if (!isRecord(value) || !Array.isArray(starts) || Array.isArray(error.params["passingSchemas"])) return undefined;
  const path = error.instancePath;
  let found: number | undefined;
  for (let index = 0; index < starts.length; index++) {
    const range = branchErrors(error, from, to, index);
    if (range === undefined) continue;
    let fits = true;
    for (let j = range[0]; j < range[1] && fits; j++) fits = !shapeError(errors[j] as AjvError, path);
    if (!fits) continue;
    if (found !== undefined) return undefined;
    found = index;
  }
  return found;
}

/**
 * An error that says the value is of another shape than the branch: at the value's own level (a
 * required or undeclared field, the type), or a field the branch fixes to one value (a tag, a
 * `const`) or forbids (zod's `never`).
 */
function shapeError(error: AjvError, path: string): boolean {
  const at = error.instancePath;
  if (at === path) return true;
  if (!at.startsWith(`${path}/`) || at.indexOf("/", path.length + 1) >= 0) return false;
  if (error.keyword === "const" || error.keyword === "not" || error.keyword === "false schema") return true;
  const allowed = error.params["allowedValues"];
  return error.keyword === "enum" && Array.isArray(allowed) && allowed.length === 1;
}

/** The branch a value's type or property names single out, when exactly one does. */
export function inferredBranch(hint: SchemaHint, value: unknown): number | undefined {
  const byType = hint.typeBranches?.[typeOf(value)] ?? (typeof value === "number" ? hint.typeBranches?.["number"] : undefined);
  if (byType !== undefined) return byType;
  const memberKeys = hint.memberKeys;
  const fields = memberKeys === undefined ? undefined : fieldEntries(value);
  if (memberKeys === undefined || fields === undefined) return undefined;
  let found: number | undefined;
  const see = (key: string): boolean => {
    if (!Object.hasOwn(memberKeys, key)) return true;
    const branch = memberKeys[key] as number;
    if (found !== undefined && found !== branch) return false;
    found = branch;
    return true;
  };
  for (const [key, inner] of fields) {
    if (!see(key)) return undefined;
    // Names one level down (`parameters/...`), where kinds that share their top-level names differ.
    for (const [innerKey] of fieldEntries(inner) ?? []) if (!see(`${key}/${innerKey}`)) return undefined;
  }
  return found;
}

export type Discriminator = NonNullable<SchemaHint["discriminator"]>;

/**
 * The branch `value` names through its discriminator property: the branch's index, or -1 when
 * the property names none; undefined when `value` is not an object holding the property.
 */
export function namedBranch(discriminator: Discriminator, value: unknown): number | undefined {
  const { property } = discriminator;
  let named: unknown;
  if (value instanceof HiddenValue) {
    // A secret-named object's tag: its name is read, its text only as one of the listed kinds.
    const tag = value.type === "object" ? value.member(property) : undefined;
    if (tag === undefined) return undefined;
    named =
      tag instanceof HiddenValue
        ? tag.schemaValueFor(
            discriminator.branches.flatMap((branch) => branch.values),
            (text) => text,
          )
        : tag;
  } else {
    if (!isRecord(value) || !Object.hasOwn(value, property)) return undefined;
    named = value[property];
  }
  return discriminator.branches.findIndex((branch) => branch.values.some((candidate) => candidate === named));
}

/** Where branch `index`'s errors lie in `errors`: `[begin, end)`, inside the union's `[from, to)`. */
function branchErrors(error: AjvError, from: number, to: number, index: number): readonly [number, number] | undefined {
  const starts = error.params["branchStarts"];
  if (index < 0 || !Array.isArray(starts) || typeof starts[index] !== "number") return undefined;
  let end = to;
  for (let next = index + 1; next < starts.length; next++) {
    const start: unknown = starts[next];
    if (typeof start === "number") {
      end = from + start;
      break;
    }
  }
  return [from + (starts[index] as number), end];
}

/** Drops `[from, to)` except `[begin, end)`; whether any error of that branch is left to report. */
function keepOnly(dropped: Uint8Array, from: number, to: number, [begin, end]: readonly [number, number]): boolean {
  let kept = false;
  for (let j = Math.max(from, begin); j < Math.min(to, end); j++) kept ||= dropped[j] !== 1;
  if (!kept) return false;
  dropped.fill(1, from, Math.max(from, begin));
  dropped.fill(1, Math.min(to, end), to);
  return true;
}
