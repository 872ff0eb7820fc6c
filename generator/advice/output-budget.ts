// Arguments likely to be cut off: a model writes a tool call's arguments out of the same output
// budget (`max_tokens`) as any text before it, and when the budget runs out mid-call the JSON is
// truncated (a syntactic failure; the report's "split the tool" diagnosis). The schema bounds how
// long the arguments can get. This estimates the longest plausible argument text from it, in
// characters, and advises when that is past a common budget.
//
// What is assumed where the schema sets no bound, and why:
// - free text (a string with no maxLength, enum, format or pattern): 200 characters, or 4,000
//   (about a page) for a field whose name says it holds a document (`body`, `content`, `text`...);
// - a string's maxLength counts up to 20,000 characters (5,000 tokens, past the budget on its
//   own): longer is a file, not text a model writes, and the advice is given already;
// - an array: maxItems, up to 100; with no maxItems, 10 items;
// - a number 20 characters, a boolean 5; a `format` its usual length; a recursive `$ref` once.
// Tokens are characters / 4 (the usual figure for English; JSON's punctuation and keys make it
// an estimate, not a bound).
import { pointerToken, resolveLocalRef } from "../json-pointer.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type Advice, type AdvisedTool, adviceAt } from "./advice-item.ts";

/**
 * The output budgets advice is measured against, in tokens. 4,096 is the output ceiling of
 * GPT-4 Turbo and the Claude 3 models and a common `max_tokens` in agent loops; a tool call
 * sharing it with text before it has less. Arguments longer than this are likely cut off.
 */
export const OUTPUT_BUDGET_TOKENS = 4_096;
export const CHARS_PER_TOKEN = 4;
export const FREE_TEXT_CHARS = 200;
export const DOCUMENT_TEXT_CHARS = 4_000;
export const MAX_COUNTED_LENGTH = 20_000;
export const UNBOUNDED_ITEMS = 10;
export const MAX_COUNTED_ITEMS = 100;

const DOCUMENT_NAME =
  /(^|[_-])(body|content|contents|text|markdown|html|code|source|patch|diff|message|prompt|document|script|query|sql|template)$|[a-z](Body|Content|Text|Markdown|Html|Code|Source|Patch|Diff|Message|Prompt|Document|Script|Query|Sql|Template)$/i;
const FORMAT_CHARS: Readonly<Record<string, number>> = {
  "date-time": 27,
  date: 12,
  time: 17,
  uuid: 38,
  email: 40,
  "idn-email": 40,
  uri: 120,
  url: 120,
  "uri-reference": 120,
  iri: 120,
  hostname: 60,
  ipv4: 17,
  ipv6: 41,
  duration: 20,
};

/** Where the length comes from: a place the schema leaves unbounded, or a large bound, with its share. */
interface Part {
  readonly pointer: string;
  readonly chars: number;
  readonly why: string;
}

interface Estimate {
  readonly chars: number;
  readonly parts: readonly Part[];
}

/** The longest plausible argument text of `schema`, in characters, and the places most of it comes from. */
export function longestArguments(schema: unknown): Estimate {
  return estimate(schema, "", "", schema, new Set(), 1, new Map());
}

/** The places an estimate keeps: the advice names the two largest, so a few more is plenty. */
const MAX_PARTS = 8;

// Definitions that reference each other along many paths (HubSpot's list filters: a union of
// filter kinds, each reaching the others) are reached once per path, exponentially many; the
// estimate of a `$ref` is made once per tool and reused, and each keeps only its largest places.
function largest(parts: readonly Part[]): Part[] {
  if (parts.length <= MAX_PARTS) return [...parts];
  return [...parts].sort((a, b) => b.chars - a.chars || (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0)).slice(0, MAX_PARTS);
}

export function outputBudgetAdvice(tool: AdvisedTool): Advice[] {
  const { chars, parts } = longestArguments(tool.inputSchema);
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN);
  if (tokens <= OUTPUT_BUDGET_TOKENS) return [];
  const top = [...parts].sort((a, b) => b.chars - a.chars || (a.pointer < b.pointer ? -1 : 1)).slice(0, 2);
  const where = top.map((part) => `${part.pointer || "/"} (${part.why})`).join(", ");
  return [
    adviceAt(
      tool,
      "output-budget",
      top[0]?.pointer ?? "",
      `its arguments can run to ${tokenText(tokens)} tokens, past a ${OUTPUT_BUDGET_TOKENS.toLocaleString("en-US")}-token output budget, where a call is cut off mid-JSON; most from ${where}`,
      `bound the largest places (maxLength on free text, maxItems on lists) to what one call needs, or split the tool so one call carries less (one item per call, or create then append)`,
    ),
  ];
}

function estimate(node: unknown, at: string, name: string, root: unknown, refs: Set<string>, times: number, memo: Map<string, Estimate>): Estimate {
  if (!isSchemaObject(node)) return { chars: node === false ? 0 : FREE_TEXT_CHARS, parts: [] };
  const ref = node["$ref"];
  if (typeof ref === "string") {
    if (refs.has(ref)) return { chars: 0, parts: [] };
    const known = memo.get(ref);
    if (known !== undefined) return known;
    const target = resolveLocalRef(root, ref);
    if (target !== undefined) {
      const found = estimate(target, ref.startsWith("#") ? decodeFragment(ref) : at, name, root, new Set([...refs, ref]), times, memo);
      memo.set(ref, found);
      return found;
    }
  }
  if ("const" in node) return { chars: jsonLength(node["const"]), parts: [] };
  if (Array.isArray(node["enum"])) return { chars: Math.max(0, ...node["enum"].map(jsonLength)), parts: [] };
  const branches = (["anyOf", "oneOf"] as const).flatMap((keyword) =>
    Array.isArray(node[keyword]) ? node[keyword].map((branch, index) => estimate(branch, `${at}/${keyword}/${index}`, name, root, refs, times, memo)) : [],
  );
  const merged = Array.isArray(node["allOf"])
    ? node["allOf"].map((branch, index) => estimate(branch, `${at}/allOf/${index}`, name, root, refs, times, memo))
    : [];
  const own = ownEstimate(node, at, name, root, refs, times, memo);
  const widest = [own, ...branches].reduce((best, next) => (next.chars > best.chars ? next : best));
  const total = merged.reduce((sum, next) => ({ chars: sum.chars + next.chars, parts: [...sum.parts, ...next.parts] }), widest);
  return { chars: total.chars, parts: largest(total.parts) };
}

/** The node's own type: an object's properties, an array's items, a scalar's length. */
function ownEstimate(node: Schema, at: string, name: string, root: unknown, refs: Set<string>, times: number, memo: Map<string, Estimate>): Estimate {
  const types = Array.isArray(node["type"]) ? node["type"] : typeof node["type"] === "string" ? [node["type"]] : [];
  const properties = isSchemaObject(node["properties"]) ? node["properties"] : undefined;
  if (types.includes("object") || properties) {
    let chars = 2;
    const parts: Part[] = [];
    for (const [key, child] of Object.entries(properties ?? {})) {
      const inner = estimate(child, `${at}/properties/${pointerToken(key)}`, key, root, refs, times, memo);
      chars += jsonLength(key) + 2 + inner.chars;
      parts.push(...inner.parts);
    }
    return { chars, parts };
  }
  if (types.includes("array") || "items" in node || "prefixItems" in node) {
    const bound = typeof node["maxItems"] === "number" ? node["maxItems"] : undefined;
    const count = Math.min(bound ?? UNBOUNDED_ITEMS, MAX_COUNTED_ITEMS);
    const prefix = Array.isArray(node["prefixItems"]) ? node["prefixItems"] : Array.isArray(node["items"]) ? node["items"] : [];
    let chars = 2;
    const parts: Part[] = [];
    for (const [index, item] of prefix.entries()) {
      const inner = estimate(item, `${at}/prefixItems/${index}`, name, root, refs, times, memo);
      chars += inner.chars + 1;
      parts.push(...inner.parts);
    }
    const rest = Math.max(0, count - prefix.length);
    if (rest > 0 && isSchemaObject(node["items"])) {
      const inner = estimate(node["items"], `${at}/items`, name, root, refs, times * rest, memo);
      chars += rest * (inner.chars + 1);
      parts.push(...inner.parts);
      if (inner.chars * rest > 2_000)
        parts.push({
          pointer: at,
          chars: inner.chars * rest * times,
          why: bound === undefined ? `no maxItems, ${UNBOUNDED_ITEMS} items assumed` : `maxItems ${bound}`,
        });
    }
    return { chars, parts };
  }
  // A schema with no type (`{}`: any value) is counted as short text; only a string can be a document.
  if (types.includes("string") || types.length === 0) return stringEstimate(node, at, types.includes("string") ? name : "", times);
  if (types.includes("boolean")) return { chars: 5, parts: [] };
  if (types.includes("null")) return { chars: 4, parts: [] };
  return { chars: 20, parts: [] };
}

function stringEstimate(node: Schema, at: string, name: string, times: number): Estimate {
  if (typeof node["maxLength"] === "number") {
    const chars = Math.min(node["maxLength"], MAX_COUNTED_LENGTH) + 2;
    return {
      chars,
      parts:
        chars > 500
          ? [{ pointer: at, chars: chars * times, why: `maxLength ${node["maxLength"].toLocaleString("en-US")}${times > 1 ? `, x${times}` : ""}` }]
          : [],
    };
  }
  if (typeof node["format"] === "string" && node["format"] in FORMAT_CHARS) return { chars: FORMAT_CHARS[node["format"]] as number, parts: [] };
  if (typeof node["pattern"] === "string") return { chars: 66, parts: [] };
  const document = DOCUMENT_NAME.test(name);
  const chars = (document ? DOCUMENT_TEXT_CHARS : FREE_TEXT_CHARS) + 2;
  return {
    chars,
    parts: [
      { pointer: at, chars: chars * times, why: `free text without maxLength${document ? ", a document assumed" : ""}${times > 1 ? `, x${times}` : ""}` },
    ],
  };
}

/** Past 100,000 the figure says nothing more: nested lists multiply. */
function tokenText(tokens: number): string {
  return tokens > 100_000 ? "over 100,000" : `~${tokens.toLocaleString("en-US")}`;
}

function jsonLength(value: unknown): number {
  return (JSON.stringify(value) ?? "").length;
}

function decodeFragment(ref: string): string {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}
