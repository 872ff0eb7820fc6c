// What `JSON.parse` accepts silently but changes: a repeated key (the last one wins), a number
// that overflows to Infinity, an integer past 2^53 that lost digits, a lone UTF-16 surrogate.
// The model's intent is ambiguous in each case, so each is reported, never passed on. The depth
// limit is checked in the same walk.
//
// Cost: a valid call pays one walk over the parsed value (proportional to its nodes, not its
// characters; one comparison per number, a string check only when the text could hold a lone
// surrogate) plus native scans of the text: `isWellFormed` and one `indexOf` for a backslash. A
// repeated key is ruled out by length first (see `SHORTEST_MEMBER`); only a text longer than that
// allows pays one `indexOf` per colon. Everything that reads the text character by character
// (where a repeated key is, which integer lost digits, where the nesting got too deep) runs only
// once the cheap checks found something.
import type { ArgumentError } from "../contract/outcome.ts";
import type { HazardWalk, WalkState } from "../contract/tool-spec.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";
import { findDuplicateKeys } from "./duplicate-keys.ts";
import { keyTokens } from "./key-tokens.ts";
import { lossyIntegers } from "./lossy-integers.ts";

/** Hazards of one kind reported at most (lossy integers, repeated keys, value hazards). */
const MAX_REPORTED = 5;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** What the full walk found so far: one object for every walk, so the valid path allocates nothing. */
interface WalkFindings {
  hazardSeen: boolean;
  tooDeep: boolean;
  /** The depth limit the walk checks against. */
  maxDepth: number;
  /** The shortest text that could spell the walked value: see `SHORTEST_MEMBER`. */
  shortest: number;
  /** Asked of every key met (`HazardLimits.keyTest`); whether it said yes to one. */
  keyTest: ((key: string) => boolean) | undefined;
  keyFlagged: boolean;
}

const FOUND: WalkFindings = { hazardSeen: false, tooDeep: false, maxDepth: Number.POSITIVE_INFINITY, shortest: 0, keyTest: undefined, keyFlagged: false };
const NO_HAZARDS: readonly ArgumentError[] = Object.freeze([]);

/** How deep `findHazards` walks; `keyTest`, asked of every key met, answered by `keyFlagged` (call/attempt.ts). */
export interface HazardLimits {
  readonly maxDepth: number;
  readonly keyTest?: ((key: string) => boolean) | undefined;
}

const UNLIMITED: HazardLimits = { maxDepth: Number.POSITIVE_INFINITY };
/** What the walk found when the value nests deeper than the limit: the caller words the error. */
export const TOO_DEEP: readonly ArgumentError[] = Object.freeze([{ path: "", rule: "too_deep", message: "" }]);

/**
 * Reports every hazard in `value`, which `JSON.parse` produced from `text`. An integer beyond
 * 2^53 is reported when the text spells a different integer than the one parsed (precision was
 * lost), or, with `anyUnsafeInteger`, always: a value an SDK parsed may have lost it already.
 * A value nested deeper than `limits.maxDepth` gives `TOO_DEEP` and nothing else.
 */
export function findHazards(text: string, value: unknown, anyUnsafeInteger: boolean = false, limits: HazardLimits = UNLIMITED): readonly ArgumentError[] {
  // A lone surrogate in the parsed value comes from one in the text (not well-formed) or from an
  // escape, which needs a backslash. Texts with backslashes get each string checked in the walk
  // (native, linear): searching them for `\\u` cost more than that where backslashes are dense.
  const checkStrings = !isWellFormed(text) || text.indexOf("\\") !== -1;
  FOUND.hazardSeen = false;
  FOUND.tooDeep = false;
  FOUND.maxDepth = limits.maxDepth;
  FOUND.shortest = 0;
  FOUND.keyTest = limits.keyTest;
  FOUND.keyFlagged = false;
  const keys = countKeys(value, checkStrings, 1);
  FOUND.keyTest = undefined;
  if (FOUND.tooDeep) return TOO_DEEP;
  // The valid path ends here, without allocating a list for no errors: first when the text is too
  // short to hold a member the parsed value lost, else when it spells no more key tokens than the
  // value has keys.
  if (!FOUND.hazardSeen && text.length - FOUND.shortest < SHORTEST_MEMBER) return NO_HAZARDS;
  const tokens = keyTokens(text);
  if (!FOUND.hazardSeen && tokens <= keys) return NO_HAZARDS;
  const errors: ArgumentError[] = [];
  if (FOUND.hazardSeen) {
    const lossy = anyUnsafeInteger ? undefined : lossyIntegers(text, MAX_REPORTED);
    collectValueHazards(value, "", { checkStrings, lossy: (n) => lossy === undefined || lossy.has(n), errors });
  }
  if (tokens > keys) {
    for (const path of findDuplicateKeys(text, MAX_REPORTED)) {
      errors.push({
        path,
        rule: "duplicate_key",
        message: `the property ${JSON.stringify(pointerTokens(path).at(-1) ?? "")} appears more than once in the same object, and parsers disagree on which copy counts; send each property exactly once`,
      });
    }
  }
  return errors;
}

/** Right after `findHazards` (of a value not too deep): whether its `keyTest` said yes to a key; false without one. */
export function keyFlagged(): boolean {
  return FOUND.keyFlagged;
}

const STATE: WalkState = { keys: 0, shortest: 0, maxDepth: 0, undeclared: true };

/**
 * Whether `value`, parsed from `text` and valid against the tool's schema, holds no hazard, by
 * the tool's generated walk: the same decision as `findHazards` on its valid path, from the
 * walk's totals. False does not mean a hazard: `findHazards` then says.
 */
export function walkedClean(text: string, value: unknown, walk: HazardWalk["walk"], depthLimit: number): boolean {
  const checkStrings = !isWellFormed(text) || text.indexOf("\\") !== -1;
  STATE.keys = 0;
  STATE.shortest = 0;
  STATE.maxDepth = depthLimit;
  STATE.undeclared = true;
  if (!walk(value, checkStrings, STATE)) return false;
  return text.length - STATE.shortest < SHORTEST_MEMBER || keyTokens(text) <= STATE.keys;
}

/**
 * Right after `walkedClean` answered true: whether every key of the text is one the schema
 * declares where it is. The clean answer rules out a repeated key (a copy the parsed value lost),
 * so the walk saw every key the text spells; a walk that says nothing of keys counts as "no".
 */
export function walkedOnlyDeclaredKeys(): boolean {
  return !STATE.undeclared;
}

/**
 * For a generated walk, a value the schema gives no one type, at nesting `level` (the level it
 * has if it is an object or array): its shortest spelling, its keys added to `state`, as the full
 * walk counts them; -1 on a possible hazard or nesting past the limit.
 */
export function anyValue(value: unknown, checkStrings: boolean, level: number, state: WalkState): number {
  // Leaves first, without the walk's state: most values of no one type are a string or a number.
  if (typeof value === "string") return checkStrings && !isWellFormed(value) ? -1 : value.length + 2;
  if (typeof value === "number") return value <= MAX_SAFE && value >= -MAX_SAFE ? shortestNumber(value) : -1;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  FOUND.hazardSeen = false;
  FOUND.tooDeep = false;
  FOUND.maxDepth = state.maxDepth;
  FOUND.shortest = 0;
  const keys = countKeys(value, checkStrings, level);
  // Keys below a value of no one type are not ones the walk was written for.
  if (keys > 0) state.undeclared = true;
  state.keys += keys;
  return FOUND.hazardSeen || FOUND.tooDeep ? -1 : FOUND.shortest;
}

/** `String.prototype.isWellFormed` (ES2024, not in this project's TypeScript lib): no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** Infinite, or an integer past 2^53 (every double that large is an integer). */
function badNumber(n: number): boolean {
  return n > MAX_SAFE || n < -MAX_SAFE;
}

/**
 * A repeated key leaves a whole member in the text that the parsed value does not hold: at least
 * `"":0,` (an empty key, a one-character value and a comma, or a comma before it). So while the
 * walk counts keys it also adds up `shortest`, a lower bound on the length of any JSON text that
 * spells the parsed value without repeating a key: every key and string with its quotes (escapes
 * only make the text longer), `true`, `false` and `null` as spelled, the fewest characters any
 * spelling of each number needs (`shortestNumber`), brackets, commas and colons. Whitespace, escapes,
 * longer numbers and repeated keys are the only ways a text exceeds it; a text that exceeds it by
 * less than one member repeats no key.
 */
const SHORTEST_MEMBER = 5;

/**
 * The fewest characters any JSON spelling of `n` has (the value does not keep its spelling): an
 * integer needs its digits, or 3 (`1e3`) once it has more; a fraction below 1 needs 3 (`0.5`);
 * any other fraction needs one digit more than its integer part has and a `.` or an `e` (an
 * integer's digits would spell an integer, which parses to itself). Plus one for a minus sign.
 */
export function shortestNumber(n: number): number {
  const sign = n < 0 ? 1 : 0;
  const a = sign === 1 ? -n : n;
  if (a < 10 && Number.isInteger(a)) return sign + 1;
  if (!(a < MAX_SAFE)) return sign + 1; // Infinite or huge: reported as a hazard anyway.
  if (Number.isInteger(a)) return sign + (a < 100 ? 2 : 3);
  if (a < 1) return sign + 3;
  let digits = 1;
  for (let power = 10; a >= power; power *= 10) digits++;
  return sign + digits + 2;
}

/** Keys in `value`; flags a hazard or a level deeper than the limit (`depth`: this value's level if it is a container). */
function countKeys(value: unknown, checkStrings: boolean, depth: number): number {
  if (typeof value === "object" && value !== null) return countContainer(value, checkStrings, depth);
  flagLeaf(value, checkStrings);
  FOUND.shortest += typeof value === "string" ? value.length + 2 : typeof value === "number" ? shortestNumber(value) : value === false ? 5 : 4;
  return 0;
}

// Leaves are judged inline and only containers recurse: the walk runs on every valid call. (One
// leaf function shared by the two loops and countKeys measured 5-20% slower on the walk.)
function countContainer(value: object, checkStrings: boolean, depth: number): number {
  if (depth > FOUND.maxDepth) {
    FOUND.tooDeep = true;
    return 0;
  }
  let keys = 0;
  // Leaves' lengths summed locally, added to `shortest` once per container.
  let length = 0;
  if (Array.isArray(value)) {
    const items = value.length;
    // The brackets and the commas between items; each item's own length below.
    length = items === 0 ? 2 : items + 1;
    for (let i = 0; i < items; i++) {
      const item: unknown = value[i];
      if (typeof item === "object") {
        if (item !== null) keys += countContainer(item, checkStrings, depth + 1);
        else length += 4;
      } else if (typeof item === "number") {
        length += shortestNumber(item);
        if (item > MAX_SAFE || item < -MAX_SAFE) FOUND.hazardSeen = true;
      } else if (typeof item === "string") {
        length += item.length + 2;
        if (checkStrings && !isWellFormed(item)) FOUND.hazardSeen = true;
      } else length += item === false ? 5 : 4;
    }
    FOUND.shortest += length;
    return keys;
  }
  // The braces; each member adds its key, quotes, colon and comma (one comma too many, taken back below).
  length = 1;
  let members = 0;
  for (const key in value) {
    keys++;
    members++;
    length += key.length + 4;
    if (checkStrings && !isWellFormed(key)) FOUND.hazardSeen = true;
    if (FOUND.keyTest !== undefined && !FOUND.keyFlagged && FOUND.keyTest(key)) FOUND.keyFlagged = true;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object") {
      if (item !== null) keys += countContainer(item, checkStrings, depth + 1);
      else length += 4;
    } else if (typeof item === "number") {
      length += shortestNumber(item);
      if (item > MAX_SAFE || item < -MAX_SAFE) FOUND.hazardSeen = true;
    } else if (typeof item === "string") {
      length += item.length + 2;
      if (checkStrings && !isWellFormed(item)) FOUND.hazardSeen = true;
    } else length += item === false ? 5 : 4;
  }
  FOUND.shortest += members === 0 ? length + 1 : length;
  return keys;
}

function flagLeaf(value: unknown, checkStrings: boolean): void {
  if (typeof value === "number") {
    if (badNumber(value)) FOUND.hazardSeen = true;
  } else if (checkStrings && typeof value === "string" && !isWellFormed(value)) FOUND.hazardSeen = true;
}

/** How value hazards are collected: whether strings are checked, which integers lost digits, the list. */
type ValueHazards = { readonly checkStrings: boolean; readonly lossy: (n: number) => boolean; readonly errors: ArgumentError[] };

function collectValueHazards(value: unknown, path: string, into: ValueHazards): void {
  const { checkStrings, lossy, errors } = into;
  if (errors.length >= MAX_REPORTED) return;
  if (typeof value === "number" && badNumber(value) && (!Number.isFinite(value) || lossy(value))) {
    errors.push(
      Number.isFinite(value)
        ? {
            path,
            rule: "integer_precision",
            message: `the integer at this field is beyond 2^53 and lost precision (it became ${value}); send a smaller number, or the exact digits as a string if the schema takes one`,
          }
        : {
            path,
            rule: "number_overflow",
            message: "the number at this field is too large to represent and became infinite; send a finite number",
          },
    );
  } else if (typeof value === "string") {
    if (checkStrings && !isWellFormed(value)) {
      errors.push({
        path,
        rule: "lone_surrogate",
        message: "the string contains an unpaired UTF-16 surrogate (an escape such as \\ud800 with no partner); send valid Unicode text",
      });
    }
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) collectValueHazards(value[index], `${path}/${index}`, into);
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      const at = `${path}/${escapeToken(key)}`;
      if (checkStrings && !isWellFormed(key)) {
        errors.push({
          path: at,
          rule: "lone_surrogate",
          message: "the property name contains an unpaired UTF-16 surrogate; send valid Unicode text",
        });
      }
      collectValueHazards((value as Record<string, unknown>)[key], at, into);
    }
  }
}
