// Step 1 of a call: from what the provider delivered to a JSON value, or syntactic errors.
// Limits are enforced before any parsing or walking; the text is never completed or repaired.
import type { ArgumentError } from "../contract/outcome.ts";
import { findHazards, type HazardLimits, TOO_DEEP } from "./json-hazards.ts";
import { nonJsonReason } from "./plain-json.ts";
import { scanSyntax, type SyntaxProblem } from "./syntax-scan.ts";

export interface ParseLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

export const DEFAULT_LIMITS: ParseLimits = { maxBytes: 1024 * 1024, maxDepth: 64 };

export interface ParseFailure {
  readonly ok: false;
  /** What the ledger records (cut to the byte limit when the arguments exceeded it). */
  readonly text: string;
  readonly errors: readonly ArgumentError[];
  /** The output was cut off: the repair budget grants one more attempt. */
  readonly truncated: boolean;
}

export type ParseResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly text: string;
      /** Parsed with `deferHazards`: not yet walked for hazards (`hazardFailure`). */
      readonly hazardsPending?: true;
    }
  | ParseFailure;

/** Finish reasons with which providers say the output hit its token ceiling. */
const CUT_OFF = new Set(["length", "max_tokens", "max_output_tokens"]);

export function isCutOff(finishReason: string | undefined): boolean {
  return finishReason !== undefined && CUT_OFF.has(finishReason.toLowerCase());
}

/**
 * `raw` is the model's JSON text, or a value an SDK already parsed: a string is always read as
 * JSON text. A parsed value must be plain JSON data; it is serialised and then read exactly like
 * text, so both paths give the implementation a fresh object with ordinary prototypes.
 *
 * `deferHazards`: a text that parses, from a provider that did not cut it off, is returned
 * without the hazard walk (`hazardsPending`); the caller owes it `hazardFailure` before using
 * the value (attempt.ts does, after the tool's generated walk had its say).
 */
export function parseArguments(raw: unknown, finishReason: string | undefined, limits: ParseLimits, deferHazards = false): ParseResult {
  let text: string;
  if (typeof raw === "string") text = raw;
  else {
    const problem = nonJsonReason(raw, limits.maxDepth);
    if (problem) return { ok: false, text: safeText(raw), errors: [problem], truncated: false };
    text = JSON.stringify(raw);
  }
  if (text.length > limits.maxBytes) {
    return {
      ok: false,
      text: text.slice(0, limits.maxBytes),
      truncated: false,
      errors: [
        {
          path: "",
          rule: "too_large",
          message: `the arguments are ${text.length} characters long and the limit is ${limits.maxBytes}; send a shorter call (fewer items, shorter text) or split the work into several calls`,
        },
      ],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return unparsable(text, error, finishReason, limits);
  }
  if (deferHazards && typeof raw === "string" && !isCutOff(finishReason)) return { ok: true, value, text, hazardsPending: true };
  const hazardous = hazardFailure(text, value, typeof raw !== "string", limits);
  if (hazardous?.errors[0]?.rule === "too_deep") return hazardous;
  if (isCutOff(finishReason)) {
    return {
      ok: false,
      text,
      truncated: true,
      errors: [
        {
          path: "",
          rule: "truncated",
          message: `the provider reports the output was cut off at its token limit (finish reason ${JSON.stringify(finishReason)}), so these arguments may be incomplete; send the complete call again, shorter`,
        },
      ],
    };
  }
  return hazardous ?? { ok: true, value, text };
}

/**
 * The failure for a text `JSON.parse` refused with `error`: nesting past the limit, else the
 * syntax diagnosis. For a caller that parsed the text itself (call/attempt.ts, a valid call's
 * straight path), so a refused text is not parsed a second time.
 */
export function unparsable(text: string, error: unknown, finishReason: string | undefined, limits: ParseLimits): ParseFailure {
  // Too deep is said first: the nesting, not a syntax slip further on, is what to fix.
  const deep = depthExceededAt(text, limits.maxDepth);
  if (deep >= 0) return tooDeep(text, limits.maxDepth, deep);
  const problem = scanSyntax(text, error instanceof Error ? error.message : "");
  const truncated = problem.rule === "truncated" || isCutOff(finishReason);
  return { ok: false, text, truncated, errors: [syntaxError(problem, truncated)] };
}

/**
 * The failure for what `JSON.parse` read from `text` without saying (a repeated key, a number
 * that lost digits or overflowed, a lone surrogate, nesting deeper than the limit), or undefined.
 * `fromSdk`: the value was parsed by an SDK, which may have lost an integer's digits already.
 * The depth limit is checked in this walk over the parsed value (JSON.parse itself does not
 * recurse on the native stack), so a valid call reads no bracket of its text for it.
 * `limits.keyTest`: asked of every key on the way (`HazardLimits`; its answer is `keyFlagged`'s).
 */
export function hazardFailure(text: string, value: unknown, fromSdk: boolean, limits: HazardLimits): ParseFailure | undefined {
  const hazards = findHazards(text, value, fromSdk, limits);
  if (hazards === TOO_DEEP) return tooDeep(text, limits.maxDepth, depthExceededAt(text, limits.maxDepth));
  return hazards.length > 0 ? { ok: false, text, truncated: false, errors: hazards } : undefined;
}

const REMEDY: Readonly<Record<SyntaxProblem["rule"], string>> = {
  truncated:
    "the output was cut off, probably at the output-token limit; do not continue the old text: call again with the complete arguments, shorter (fewer items, shorter strings)",
  single_quotes: "JSON needs double quotes around every string and property name: send {\"name\": \"value\"}, not {'name': 'value'}",
  trailing_comma: "JSON allows no comma before a closing } or ]; remove it",
  code_fence: "send the bare JSON object as the arguments, without Markdown code fences or text around it",
  comment: "JSON has no comments; remove them",
  text_around_json: "send the arguments object alone, with nothing before or after it",
  invalid_json: "send the complete arguments as one valid JSON object, with nothing before or after it",
};

function syntaxError(problem: SyntaxProblem, truncated: boolean): ArgumentError {
  const where = problem.pointer ? ` while writing ${problem.pointer}` : "";
  const rule = truncated ? "truncated" : problem.rule;
  const remedy = truncated ? REMEDY.truncated : (problem.remedy ?? REMEDY[rule]);
  return {
    path: problem.pointer ?? "",
    rule,
    message: `the arguments are not valid JSON: found ${problem.found} at character ${problem.offset}${where}; ${remedy}`,
  };
}

function tooDeep(text: string, maxDepth: number, at: number): ParseFailure {
  const where = at >= 0 ? ` (at character ${at})` : "";
  return {
    ok: false,
    text,
    truncated: false,
    errors: [
      {
        path: "",
        rule: "too_deep",
        message: `the arguments nest deeper than ${maxDepth} levels of objects and arrays${where}; send a flatter object`,
      },
    ],
  };
}

/**
 * Index of the first bracket nested deeper than `maxDepth`, or -1. Counting brackets first
 * (native `indexOf`) makes the character scan run only for texts that could be that deep.
 */
function depthExceededAt(text: string, maxDepth: number): number {
  if (countUpTo(text, "{", maxDepth + 1) + countUpTo(text, "[", maxDepth + 1) <= maxDepth) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

function countUpTo(text: string, char: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1 && count < limit; at = text.indexOf(char, at + 1)) count++;
  return count;
}

function safeText(raw: unknown): string {
  try {
    return String(JSON.stringify(raw)).slice(0, 4096);
  } catch {
    return Object.prototype.toString.call(raw);
  }
}
