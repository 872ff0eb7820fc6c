// A version-3 line read back (docs/ledger.md, "Format"): a clean entry whose raw text is embedded
// as the value of `args`, byte for byte, with the members a clean entry implies left out. The
// raw text is given back as the line's own characters between `,"args":` and the closing `}`,
// never re-serialised: `1.0`, `1e2`, `"\u00e9"` and the text's whitespace come back as they
// were sent, which `JSON.stringify(JSON.parse(...))` would not give.
import type { Resolution } from "../contract/resolution.ts";
import type { LedgerEntry } from "./ledger.ts";

/** How every version-3 line starts. */
export const EMBEDDED_START = '{"v":3,';
/** What comes before the embedded text. Inside a JSON string a `"` is always escaped, so `,"` never occurs in one: the first `,"args":` of a line is its member. */
const ARGS = ',"args":';
/** A version-3 line's members before `args` (and `resolved`, when there is one), in the writer's order (clean-line.ts). */
const HEAD_MEMBERS = ["v", "chain", "tool", "turn", "startedAt", "verdict"] as const;
const RESOLUTION_MEMBERS = ["path", "text", "id", "target"] as const;

/**
 * The clean entry a version-3 line holds: its head's members, one attempt whose `raw` is the
 * embedded text and which has no errors and no coercions, and no repairs; with `resolved`, that
 * attempt's one resolution and `argumentsResolved` (what the version-2 line says). Undefined when
 * the line is not such a line (not whole, other members, a text that is not one JSON value),
 * which the caller then reads as plain JSON.
 */
export function embeddedEntry(text: string): LedgerEntry | undefined {
  const at = text.indexOf(ARGS);
  if (at === -1 || !text.startsWith(EMBEDDED_START) || !text.endsWith("}")) return undefined;
  const head = parsed(`${text.slice(0, at)}}`);
  if (!isHead(head)) return undefined;
  const raw = text.slice(at + ARGS.length, -1);
  // The text must be one whole JSON value: a torn line, or one with members after it, is not this line.
  if (parsed(raw) === undefined) return undefined;
  const { resolved, ...members } = head as typeof head & { resolved?: Resolution };
  if (resolved === undefined) return { ...members, attempts: [{ raw, errors: [], coercions: [] }], repairs: 0 };
  return { ...members, attempts: [{ raw, errors: [], coercions: [], resolutions: [resolved] }], repairs: 0, argumentsResolved: true };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The head's members exactly, in order, each of its type: `v` 3 and five strings, then maybe `resolved`. */
function isHead(value: unknown): value is Pick<LedgerEntry, "v" | "chain" | "tool" | "turn" | "startedAt" | "verdict"> {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  const resolved = keys.length === HEAD_MEMBERS.length + 1 && keys[HEAD_MEMBERS.length] === "resolved";
  if ((keys.length !== HEAD_MEMBERS.length && !resolved) || HEAD_MEMBERS.some((key, index) => keys[index] !== key)) return false;
  if (value["v"] !== 3 || !HEAD_MEMBERS.every((key) => key === "v" || typeof value[key] === "string")) return false;
  return !resolved || isResolution(value["resolved"]);
}

/** `{path, text, id, target}`, four strings in that order: a resolution as the resolve step makes it. */
function isResolution(value: unknown): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === RESOLUTION_MEMBERS.length && RESOLUTION_MEMBERS.every((key, index) => keys[index] === key && typeof value[key] === "string");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
