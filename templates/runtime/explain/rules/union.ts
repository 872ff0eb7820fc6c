// A value no branch of an `anyOf`/`oneOf` accepted (when no branch could be singled out, see
// alternatives.ts): for a discriminated union, what the discriminator may be, and the kind the
// other fields name when it is missing; otherwise the accepted types and a documented example.
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError } from "../../contract/tool-spec.ts";
import { inferredBranch, namedBranch, type Discriminator } from "../alternatives.ts";
import { valueAt } from "../../json/json-pointer.ts";
import { fixed, remember, type Location } from "../location.ts";
import { closestName, normalFormsOf } from "../spelling.ts";
import { synonymOf } from "../synonyms.ts";
import { childPath, fieldEntries, fieldOf, HiddenValue, isRecord, listed, received, sendExample, shorten, shownAt, typeOf } from "../text.ts";
import { allowedOf, hiddenNearMiss, nearMiss } from "./enum.ts";
import { optionalAt } from "../optional.ts";
import { shapeReading, valueReading } from "./type.ts";
import { otherTypeReading } from "./union-reading.ts";
import { prefixMatch } from "../prefix-match.ts";

const OBJECT: readonly string[] = ["object"];

/** Discriminator values listed in full up to this many (they are short names, and the model needs the exact one). */
const LISTED_KINDS = 40;

export function explainUnion(error: AjvError, location: Location, document: unknown): ArgumentError {
  const hint = location.hint;
  const path = error.instancePath;
  const value = shownAt(document, path);
  const discriminated = hint.discriminator && explainDiscriminator(location, hint.discriminator, path, value);
  if (discriminated) return discriminated;
  if (value === null && optionalAt(hint, path))
    return { path, rule: error.keyword, message: `${received(value)}; this field is optional: omit it rather than sending null` };
  // A value of a type no branch takes that carries the value meant (`"+8"` or `"None"` against
  // zod's or pydantic's nullable integer, `anyOf: [{type: integer, maximum: 20}, {type: null}]`):
  // the type rule's reading of it, as for `type: [integer, null]`. A value that carries none
  // keeps the union's summary, which lists the allowed values and patterns.
  const types = hint.types ?? (hint.objectUnion ? OBJECT : undefined);
  const reading =
    types !== undefined && !takesType(types, value)
      ? (valueReading(location, types.join(","), value, optionalAt(hint, path)) ?? shapeReading(hint, types.join(","), value))
      : otherTypeReading(location, value, optionalAt(hint, path));
  if (reading !== undefined) {
    const accepted = fixed(location, "accepted", () => `it matches none of the allowed shapes (accepted types: ${types?.join(", ")})`);
    return { path, rule: error.keyword, message: `${received(value)}; ${accepted}: ${reading}` };
  }
  // A secret-named object's names are compared with the schema's, never quoted back.
  const renamed = isRecord(value) && !(value instanceof HiddenValue) ? misspeltInOneBranch(location, path, value) : undefined;
  if (renamed !== undefined) return { path, rule: error.keyword, message: `the object fits none of the allowed shapes; ${renamed}` };
  const fields = fieldEntries(value);
  const held = fields === undefined ? undefined : new Set(fields.map(([name]) => name));
  const lacking = held === undefined ? undefined : whatEachLacks(hint.branchRequired, held);
  const above = lacking === undefined || held === undefined ? undefined : heldAbove(hint.branchRequiredAbove, path, held, document);
  if (lacking !== undefined && above !== undefined) {
    // Said at the field's own place, as a required field's move is: the repairer moves it here.
    return {
      path: childPath(path, above.name),
      rule: error.keyword,
      message: `the object fits none of the allowed shapes; each lacks a required field: ${lacking}. The call holds ${JSON.stringify(above.name)} at ${above.at}, where it does not belong: move ${above.at} here`,
    };
  }
  if (lacking !== undefined) {
    return {
      path,
      rule: error.keyword,
      message: `the object fits none of the allowed shapes; each lacks a required field: ${lacking}. If you do not know the value, ask the user instead of guessing`,
    };
  }
  const ambiguous = error.keyword === "oneOf" && Array.isArray(error.params["passingSchemas"]);
  const tagged = ambiguous && isRecord(value) ? untaggedMember(location, path, value) : undefined;
  if (tagged !== undefined) return tagged;
  const advice = ambiguous
    ? fixed(
        location,
        "ambiguous",
        () => `it matches more than one of the allowed shapes, so its meaning is ambiguous; send a value that fits exactly one${sendExample(hint)}`,
      )
    : fixed(location, "none", () => {
        const allowed = allowedOf(error, hint);
        return (
          "it matches none of the allowed shapes" +
          (hint.types ? ` (accepted types: ${hint.types.join(", ")})` : "") +
          (allowed ? `; allowed values: ${listed(allowed)}` : sendExample(hint)) +
          (hint.patterns ? `; ${allowed ? "or " : ""}a string matching ${hint.patterns.map((pattern) => JSON.stringify(pattern)).join(" or ")}` : "")
        );
      });
  // A union of listed values: the one the text most plausibly means, as for an enum. A secret-named
  // field's hidden text is read so only where every value is listed (no pattern beside them).
  const listedValues = (hint.nearMisses !== undefined || hint.allowed !== undefined) && !ambiguous;
  const meant =
    typeof value === "string" && listedValues
      ? remember(location, value, () => nearMiss(value, hint) as string | undefined)
      : value instanceof HiddenValue && listedValues && hint.patterns === undefined
        ? (hiddenNearMiss(value, hint) as string | undefined)
        : undefined;
  return { path, rule: error.keyword, message: `${received(value)}; ${advice}${meant === undefined ? "" : ` — did you mean ${JSON.stringify(meant)}?`}` };
}

/**
 * A discriminated union whose value names no branch: the discriminator is what to fix, and the
 * message lists what it may be, or, when the other fields belong to one kind only, names it.
 * Undefined when the value is not an object (the usual message applies) or names a branch (its
 * errors were kept instead, see alternatives.ts).
 */
function explainDiscriminator(location: Location, discriminator: Discriminator, path: string, value: unknown): ArgumentError | undefined {
  if (!isRecord(value)) return undefined;
  const index = namedBranch(discriminator, value);
  const { property } = discriminator;
  if (index !== undefined && index >= 0) return contradicted(location, discriminator, { path, value, index });
  const kinds = kindsOf(discriminator);
  const allowed = fixed(location, "kinds", () =>
    kinds.length <= LISTED_KINDS ? listed(kinds) : `${listed(kinds.slice(0, LISTED_KINDS))} and ${kinds.length - LISTED_KINDS} more`,
  );
  const at = childPath(path, property);
  if (index === undefined) {
    const inferred = inferredBranch(location.hint, value);
    const only = inferred === undefined ? undefined : discriminator.branches[inferred]?.values;
    if (only !== undefined && only.length === 1) {
      return {
        path: at,
        rule: "required",
        message: `missing required field ${JSON.stringify(property)}, which says what kind of object this is; the other fields are those of ${JSON.stringify(only[0])}: send ${JSON.stringify(only[0])}`,
      };
    }
    return {
      path: at,
      rule: "required",
      message: `missing required field ${JSON.stringify(property)}, which says what kind of object this is: one of ${allowed}`,
    };
  }
  const named = fieldOf(value, property);
  // A misspelt kind, else a synonym of exactly one (`plain` for `text`), else the one kind the text
  // starts (Letta's `ver` for `version`), as an enum's value hears.
  const close =
    typeof named === "string"
      ? remember(location, named, () => closestName(named, kinds) ?? synonymKind(named, kinds) ?? prefixMatch(named, kinds))
      : undefined;
  // A tag naming no kind (another union's) beside fields only one kind declares: that kind's
  // one tag value, unless the text is a near miss of a different kind (the near miss is told).
  const inferred = inferredBranch(location.hint, value);
  const fits = inferred === undefined ? undefined : discriminator.branches[inferred]?.values;
  const fitting = fits !== undefined && fits.length === 1 && (close === undefined || close === fits[0]) ? fits[0] : undefined;
  // A kind sent as a list of one (Lakekeeper's `{"type": ["hard"]}`): one value goes here.
  const single = Array.isArray(named) && named.length === 1 && kinds.includes(named[0] as string) ? (named[0] as string) : undefined;
  if (single !== undefined && (fitting === undefined || fitting === single)) {
    return {
      path: at,
      rule: "enum",
      message: `${received(named)}; ${JSON.stringify(property)} says what kind of object this is, one value, not a list: send ${JSON.stringify(single)}`,
    };
  }
  return {
    path: at,
    rule: "enum",
    message:
      `${received(named)}; ${JSON.stringify(property)} says what kind of object this is and must be one of ${allowed}` +
      (fitting !== undefined
        ? `; the other fields are those of ${JSON.stringify(fitting)}: send ${JSON.stringify(fitting)}`
        : close
          ? ` — did you mean ${shorten(close, 80)}?`
          : ""),
  };
}

/**
 * A value naming kind `index` whose other fields are only another kind's (alternatives.ts kept
 * the union's error for it): the tag that kind takes, offered beside the named kind's fields.
 * Undefined when the fields single out no other kind (the named kind's errors were kept).
 */
function contradicted(
  location: Location,
  discriminator: Discriminator,
  sent: { readonly path: string; readonly value: Record<string, unknown>; readonly index: number },
): ArgumentError | undefined {
  const { path, value, index } = sent;
  const inferred = inferredBranch(location.hint, value);
  const other = inferred === undefined || inferred === index ? undefined : discriminator.branches[inferred]?.values;
  if (other === undefined || other.length !== 1) return undefined;
  const { property } = discriminator;
  const named = fieldOf(value, property);
  const lacking = location.hint.branchRequired?.[index]?.filter((name) => fieldOf(value, name) === undefined) ?? [];
  const its = lacking.length === 0 ? "its fields" : `the fields it requires (${lacking.map((name) => JSON.stringify(name)).join(", ")})`;
  // A hidden tag was read as one of the kinds (alternatives.ts): that kind is the schema's text.
  const kind = discriminator.branches[index]?.values;
  const shown = !(named instanceof HiddenValue) ? shorten(named, 60) : kind?.length === 1 ? JSON.stringify(kind[0]) : "the kind sent";
  return {
    path: childPath(path, property),
    rule: "enum",
    message: `${received(named)}; the other fields are those of ${JSON.stringify(other[0])}, not of ${shown}: send ${JSON.stringify(other[0])} if that is the kind you meant, else keep ${shown} and add ${its}`,
  };
}

/** Every value the discriminator may take, in branch order, listed once per union. */
function kindsOf(discriminator: Discriminator): readonly string[] {
  let kinds = kindsByDiscriminator.get(discriminator);
  if (kinds === undefined) kindsByDiscriminator.set(discriminator, (kinds = discriminator.branches.flatMap((branch) => branch.values)));
  return kinds;
}

const kindsByDiscriminator = new WeakMap<Discriminator, readonly string[]>();

/** `add "name", or add "names"`: per branch, the required fields `value` lacks; undefined when some branch lacks none. */
/**
 * The one name a member requires that the object lacks and the object holding it has instead
 * (`{request: {threshold: 5}, image_url: "..."}`), where no holder declares that name; undefined
 * when none or several are so held.
 */
function heldAbove(
  names: readonly string[] | undefined,
  path: string,
  fields: ReadonlySet<string>,
  document: unknown,
): { name: string; at: string } | undefined {
  if (names === undefined || path === "") return undefined;
  const parentPath = path.slice(0, path.lastIndexOf("/"));
  const parent = valueAt(document, parentPath);
  if (!isRecord(parent)) return undefined;
  const held = names.filter((name) => !fields.has(name) && Object.hasOwn(parent, name));
  return held.length === 1 ? { name: held[0] as string, at: childPath(parentPath, held[0] as string) } : undefined;
}

function whatEachLacks(branchRequired: readonly (readonly string[])[] | undefined, fields: ReadonlySet<string>): string | undefined {
  if (branchRequired === undefined) return undefined;
  const alternatives: string[] = [];
  for (const required of branchRequired) {
    const missing = required.filter((name) => !fields.has(name));
    if (missing.length === 0) return undefined;
    const text = `add ${missing.map((name) => JSON.stringify(name)).join(" and ")}`;
    if (!alternatives.includes(text)) alternatives.push(text);
  }
  return alternatives.join(", or ");
}

/**
 * The one branch whose every missing required field the object holds under a misspelt name
 * (Notion's `parent`, a `$ref` to a `oneOf` of `page_id`, `database_id` and `workspace` parents,
 * sent as `{"pageid": ...}`), said as the moves that rename them; undefined when no branch or
 * more than one is so completed, or a key is a name some branch declares.
 */
function misspeltInOneBranch(location: Location, path: string, value: Record<string, unknown>): string | undefined {
  const branchRequired = location.hint.branchRequired;
  if (branchRequired === undefined) return undefined;
  const known = (key: string): boolean =>
    branchRequired.some((names) => names.includes(key)) || (location.hint.memberKeys !== undefined && Object.hasOwn(location.hint.memberKeys, key));
  const strays = Object.keys(value).filter((key) => !known(key));
  if (strays.length === 0) return undefined;
  let found: string | undefined;
  for (const required of branchRequired) {
    const steps: string[] = [];
    const used = new Set<string>();
    for (const name of required) {
      if (Object.hasOwn(value, name)) continue;
      const keys = strays.filter((key) => closestName(key, [name]) === name);
      const key = keys.length === 1 ? (keys[0] as string) : undefined;
      if (key === undefined || used.has(key)) break;
      used.add(key);
      steps.push(`the call holds ${JSON.stringify(name)} as ${JSON.stringify(key)}: move ${childPath(path, key)} to ${childPath(path, name)}`);
    }
    if (steps.length === 0 || used.size !== required.filter((name) => !Object.hasOwn(value, name)).length) continue;
    if (found !== undefined) return undefined;
    found = steps.join("; ");
  }
  return found;
}

/** Whether one of the JSON `types` takes `value` (an integer is a number too). */
function takesType(types: readonly string[], value: unknown): boolean {
  const type = typeOf(value);
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

/** The one kind that shares `text`'s synonym group (explain/synonyms.ts), or undefined. */
function synonymKind(text: string, kinds: readonly string[]): string | undefined {
  const normals = normalFormsOf(kinds);
  const found = synonymOf(text, normals);
  return found === undefined ? undefined : kinds[normals.indexOf(found)];
}

/**
 * A value that fits more than one branch of a `oneOf` whose optional tag it leaves out, and whose
 * other fields are one branch's only: the tag that branch takes (Box's AI taxonomy source sent
 * without `type`). Undefined when the fields do not single out one branch of one tag value.
 */
function untaggedMember(location: Location, path: string, value: Record<string, unknown>): ArgumentError | undefined {
  const tag = location.hint.optionalTag;
  if (tag === undefined || fieldOf(value, tag.property) !== undefined) return undefined;
  const inferred = inferredBranch(location.hint, value);
  const only = inferred === undefined ? undefined : tag.branches[inferred]?.values;
  if (only === undefined || only.length !== 1) return undefined;
  return {
    path: childPath(path, tag.property),
    rule: "oneOf",
    message: `the object fits more than one of the allowed shapes; ${JSON.stringify(tag.property)} says which, and the other fields are those of ${JSON.stringify(only[0])}: send ${JSON.stringify(only[0])}`,
  };
}
