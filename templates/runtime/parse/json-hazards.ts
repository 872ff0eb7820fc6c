// What `JSON.parse` accepts silently but changes: a repeated key (the last one wins), a number
// that overflows to Infinity, an integer past 2^53 that lost digits, a lone UTF-16 surrogate.
// The model's intent is ambiguous in each case, so each is reported, never passed on.
//
// Cost: a valid call pays one walk over the parsed value (proportional to its nodes, not its
// characters) plus two native scans of the text. The character-level scan for repeated keys
// runs only when the text holds more `"…":` key tokens than the parsed value has keys, and the
// string check only when the text contains a surrogate escape or is not well-formed.
import type { ArgumentError } from "../contract/outcome.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const MAX_REPORTED = 5;

let hazardSeen = false;
const NO_HAZARDS: readonly ArgumentError[] = Object.freeze([]);

/**
 * Reports every hazard in `value`, which `JSON.parse` produced from `text`. An integer beyond
 * 2^53 is reported when the text spells a different integer than the one parsed (precision was
 * lost), or, with `anyUnsafeInteger`, always: a value an SDK parsed may have lost it already.
 */
export function findHazards(text: string, value: unknown, anyUnsafeInteger: boolean = false): readonly ArgumentError[] {
  const checkStrings = (text.includes("\\u") && SURROGATE_ESCAPE.test(text)) || !isWellFormed(text);
  hazardSeen = false;
  const keys = countKeys(value, checkStrings);
  // The valid path ends here, without allocating a list for no errors.
  if (!hazardSeen && keyTokens(text) <= keys) return NO_HAZARDS;
  const errors: ArgumentError[] = [];
  if (hazardSeen) {
    const lossy = anyUnsafeInteger ? undefined : lossyIntegers(text);
    collectValueHazards(value, "", checkStrings, (n) => lossy === undefined || lossy.has(n), errors);
  }
  if (keyTokens(text) > keys) {
    for (const path of findDuplicateKeys(text)) {
      errors.push({
        path,
        rule: "duplicate_key",
        message: `the property ${JSON.stringify(lastToken(path))} appears more than once in the same object, and parsers disagree on which copy counts; send each property exactly once`,
      });
    }
  }
  return errors;
}

function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function badNumber(n: number): boolean {
  return !Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n));
}

function countKeys(value: unknown, checkStrings: boolean): number {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number") {
      if (badNumber(value)) hazardSeen = true;
    } else if (checkStrings && typeof value === "string" && !isWellFormed(value)) hazardSeen = true;
    return 0;
  }
  let keys = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) keys += countKeys(value[i], checkStrings);
    return keys;
  }
  for (const key in value) {
    if (checkStrings && !isWellFormed(key)) hazardSeen = true;
    keys += 1 + countKeys((value as Record<string, unknown>)[key], checkStrings);
  }
  return keys;
}

const NUMBER_TOKEN = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/g;

/** Parsed values of integer literals in `text` whose digits `JSON.parse` could not keep. */
function lossyIntegers(text: string): Set<number> {
  const lossy = new Set<number>();
  for (const match of text.matchAll(NUMBER_TOKEN)) {
    let digits = (match[1] ?? "") + (match[2] ?? "");
    let exponent = Number(match[3] ?? 0) - (match[2] ?? "").length;
    while (exponent < 0 && digits.endsWith("0")) {
      digits = digits.slice(0, -1);
      exponent++;
    }
    // Up to 15 significant digits always survive a double; only longer integers can lose some.
    const significant = digits.replace(/^0+/, "").replace(/0+$/, "").length;
    if (exponent < 0 || significant <= 15 || digits.length + exponent > 400) continue;
    const parsed = Number(match[0]);
    if (Number.isFinite(parsed) && BigInt(digits + "0".repeat(exponent)) !== BigInt(Math.abs(parsed))) lossy.add(parsed);
  }
  return lossy;
}

function collectValueHazards(value: unknown, path: string, checkStrings: boolean, lossy: (n: number) => boolean, errors: ArgumentError[]): void {
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
    value.forEach((item, index) => collectValueHazards(item, `${path}/${index}`, checkStrings, lossy, errors));
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
      collectValueHazards((value as Record<string, unknown>)[key], at, checkStrings, lossy, errors);
    }
  }
}

/**
 * Counts `"…":` key tokens in the text: an upper bound on the keys it spells, because every key
 * ends in a quote followed by a colon (a string value can mimic one only with an escaped quote).
 */
function keyTokens(text: string): number {
  let count = 0;
  let at = text.indexOf(":");
  while (at !== -1) {
    let before = at - 1;
    let c = text.charCodeAt(before);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(--before);
    if (c === 0x22) count++;
    at = text.indexOf(":", at + 1);
  }
  return count;
}

interface Frame {
  readonly keys: Set<string> | undefined;
  token: string | number;
  expectKey: boolean;
}

/** Pointers of repeated keys in `text`, which must be valid JSON. */
export function findDuplicateKeys(text: string): string[] {
  const found: string[] = [];
  const frames: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n && found.length < MAX_REPORTED; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i++;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i += 2;
        } else if (d === 0x22) break;
        else i++;
      }
      const top = frames[frames.length - 1];
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.keys.has(key)) found.push(pointerOf(frames, frames.length - 1) + "/" + escapeToken(key));
        else top.keys.add(key);
        top.token = key;
        top.expectKey = false;
      }
    } else if (c === 0x7b) frames.push({ keys: new Set(), token: "", expectKey: true });
    else if (c === 0x5b) frames.push({ keys: undefined, token: 0, expectKey: false });
    else if (c === 0x7d || c === 0x5d) frames.pop();
    else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.keys) top.expectKey = true;
      else if (top) top.token = (top.token as number) + 1;
    }
  }
  return found;
}

function pointerOf(frames: readonly Frame[], length: number): string {
  let pointer = "";
  for (let i = 0; i < length; i++) pointer += "/" + escapeToken((frames[i] as Frame).token);
  return pointer;
}

function lastToken(pointer: string): string {
  return pointerTokens(pointer).at(-1) ?? "";
}
