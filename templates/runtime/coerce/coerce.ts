// Step 2 of a call: the strict coercion allowlist. Only two readings are applied, because each
// has exactly one honest interpretation: "true"/"false" as booleans, and a bare decimal numeral
// as a number. Anything else ("1,299.00", "$5", "0x10", "1e", "") stays a string, fails
// validation and is explained to the model; it is never guessed at.
import type { Coercion } from "../contract/outcome.ts";
import type { CoercionTable, CoercionTarget } from "../contract/tool-spec.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";

/** A bare decimal numeral: sign, digits, optional fraction, optional exponent; spaces around. */
const BARE_NUMBER = /^\s*[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$/;

/** A coercion table compiled once per tool: each pattern split into tokens, each token escaped once. */
export type CoercionPlan = readonly CoercionStep[];

/** One pattern of a plan: its tokens (`*`: any index), the same tokens as JSON Pointer text, its target. */
export interface CoercionStep {
  readonly tokens: readonly string[];
  /** `escapeToken` of each token, made when the plan is: a pointer is written only for a coercion made. */
  readonly escaped: readonly string[];
  readonly target: CoercionTarget;
  /** No `*` in the pattern: it names one place, whose parent is found by its keys alone. */
  readonly fixed: boolean;
  /**
   * Fixed, and its parent is the previous step's (also fixed): the parent found for that one
   * serves. Sorted patterns of one object's fields come together (`/body/auto_init`,
   * `/body/private`...), so the object is found once, not once per field.
   */
  readonly sameParent: boolean;
}

export function planCoercions(table: CoercionTable): CoercionPlan {
  let previous: CoercionStep | undefined;
  return Object.keys(table)
    .sort()
    .map((pattern) => {
      const tokens = pointerTokens(pattern);
      const fixed = tokens.length > 0 && !tokens.includes("*");
      const sameParent = fixed && previous?.fixed === true && sameButLast(previous.tokens, tokens);
      previous = { tokens, escaped: tokens.map((token) => escapeToken(token)), target: table[pattern] as CoercionTarget, fixed, sameParent };
      return previous;
    });
}

/** Whether `a` and `b` have the same length and the same tokens but the last. */
function sameButLast(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The strict reading of `text` as `target`, or `undefined` when the allowlist does not cover it. */
export function coerceString(text: string, target: CoercionTarget): number | boolean | undefined {
  if (target === "boolean") {
    const word = text.trim().toLowerCase();
    return word === "true" ? true : word === "false" ? false : undefined;
  }
  if (!BARE_NUMBER.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return undefined;
  if (target === "integer" && !Number.isInteger(n)) return undefined;
  return n;
}

/**
 * Coercions an attempt lists, in its outcome and in the ledger; the rest are counted
 * (`coercionsOmitted`). A 1 MiB array of numeric strings holds some 260,000 of them: listed one
 * by one they made a 16 MB tool result and cost more than the call's every other step.
 */
export const MAX_COERCION_RECORDS = 100;

/** What a plan changed: the first `keep` coercions, in the order applied, and how many more. */
export interface AppliedCoercions {
  readonly records: readonly Coercion[];
  readonly omitted: number;
}

/**
 * Applies the plan to `document` in place and returns what it changed, listing at most `keep`
 * coercions (every one is applied). The document must be the guard's own copy (fresh from
 * `JSON.parse`), never the caller's object.
 */
export function applyCoercions(
  document: unknown,
  plan: CoercionPlan,
  read: StringReader = coerceString,
  keep: number = MAX_COERCION_RECORDS,
): AppliedCoercions {
  const walk: Walk = { step: plan[0] as CoercionStep, read, applied: undefined, keep, omitted: 0, indices: [] };
  // The parent of the last fixed step, as `parentOf` found it (undefined: the document has none there).
  let parent: object | undefined;
  for (const pattern of plan) {
    walk.step = pattern;
    if (!pattern.fixed) {
      visit(document, walk, 0);
      continue;
    }
    if (!pattern.sameParent) parent = parentOf(document, pattern.tokens);
    const last = pattern.tokens.length - 1;
    const key = pattern.tokens[last] as string;
    // What `visit` does at the pattern's last token, without walking down to it again.
    if (parent !== undefined && Object.hasOwn(parent, key)) step(parent as Record<string, unknown>, key, walk, last);
  }
  // Nearly always nothing was coerced: one shared answer, rather than an empty list kept by every record.
  return walk.applied === undefined ? NOTHING_COERCED : { records: walk.applied, omitted: walk.omitted };
}

const NOTHING_COERCED: AppliedCoercions = Object.freeze({ records: Object.freeze([]), omitted: 0 });

/** The object (or array) a fixed pattern's last token is looked up in, as `visit` reaches it; undefined where it stops. */
function parentOf(document: unknown, tokens: readonly string[]): object | undefined {
  let node: unknown = document;
  for (let depth = 0; depth < tokens.length - 1; depth++) {
    if (node === null || typeof node !== "object") return undefined;
    const token = tokens[depth] as string;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node !== null && typeof node === "object" ? node : undefined;
}

/** The allowlist's reading of one string; replaceable only so tests can plant a lax one. */
export type StringReader = (text: string, target: CoercionTarget) => number | boolean | undefined;

/** One pattern of the plan being applied, and where its coercions are collected. */
interface Walk {
  step: CoercionStep;
  readonly read: StringReader;
  /** Made on the first coercion. */
  applied: Coercion[] | undefined;
  readonly keep: number;
  /** Coercions applied past `keep`: counted, their paths never built. */
  omitted: number;
  /**
   * The array index taken at each depth whose token is `*`. The pointer of a coercion is written
   * from these and the plan's escaped tokens only when one is made: the walk runs before every
   * validation, and nearly always coerces nothing.
   */
  readonly indices: number[];
}

function visit(node: unknown, walk: Walk, depth: number): void {
  if (node === null || typeof node !== "object") return;
  const token = walk.step.tokens[depth] as string;
  if (token !== "*") {
    if (Object.hasOwn(node, token)) step(node as Record<string, unknown>, token, walk, depth);
  } else if (Array.isArray(node)) {
    // Indices walked in place, and only the items that need a step: this runs before every
    // validation of a tool with array coercions, where the items are almost always right.
    const last = depth === walk.step.tokens.length - 1;
    for (let index = 0; index < node.length; index++) {
      const item: unknown = node[index];
      if (last ? typeof item === "string" : item !== null && typeof item === "object") {
        walk.indices[depth] = index;
        step(node as unknown as Record<number, unknown>, index, walk, depth);
      }
    }
  }
}

/** One matched key of `node`: descend, or coerce the string found at the end of the pattern. */
function step(node: Record<string | number, unknown>, key: string | number, walk: Walk, depth: number): void {
  const value = node[key];
  if (depth < walk.step.tokens.length - 1) {
    if (value !== null && typeof value === "object") visit(value, walk, depth + 1);
    return;
  }
  if (typeof value !== "string") return;
  const coerced = walk.read(value, walk.step.target);
  if (coerced === undefined) return;
  node[key] = coerced;
  walk.applied ??= [];
  if (walk.applied.length >= walk.keep) walk.omitted++;
  else walk.applied.push({ path: pointerOf(walk, depth), from: value, to: coerced, rule: `string->${walk.step.target}` });
}

/** The pointer of the place the walk stands at, `depth` its last token: each `*` by the index it took. */
function pointerOf(walk: Walk, depth: number): string {
  const { tokens, escaped } = walk.step;
  let pointer = "";
  for (let i = 0; i <= depth; i++) pointer += `/${tokens[i] === "*" ? String(walk.indices[i]) : (escaped[i] as string)}`;
  return pointer;
}
