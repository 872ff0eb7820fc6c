// The syntactic mistakes: the valid call written as text that is not one JSON object, as models
// write it. Each is made from the valid call's own JSON, once per tool, and names the text fix
// the envelope must carry (literal-repairer.ts reads it): cut off (no literal fix: the rest of
// the call is lost), single quotes, a trailing comma, a Markdown code fence, prose before or after.
import type { CorpusCase } from "../mistake-case.ts";
import type { TextFix } from "../literal-repairer.ts";
import type { Seeded } from "./seeded.ts";

/** Words models put around the JSON they were asked for. */
const BEFORE = ["Here are the arguments:\n", "Sure! Calling the tool with:\n", "I'll use these parameters: "];
const AFTER = ["\nLet me know if you need anything else.", "\n\nThis should do it.", " (as requested)"];

type Text = (json: string, valid: unknown, random: Seeded) => string | undefined;

const TEXT_CLASSES: Readonly<Record<string, readonly [Text, TextFix]>> = {
  "JSON cut off": [
    (json) => {
      if (json.length < 12) return undefined;
      // Cut inside the text, never right after a complete value: the rest of the call is lost.
      const cut = json.slice(0, Math.floor(json.length * 0.6));
      return parses(cut) ? undefined : cut;
    },
    "resend",
  ],
  "JSON in single quotes": [(_json, valid) => singleQuoted(valid), "quotes"],
  "JSON with a trailing comma": [
    (json) => {
      if (!json.endsWith("}") || json === "{}") return undefined;
      return `${json.slice(0, -1)},}`;
    },
    "comma",
  ],
  "JSON in a code fence": [(json, _valid, random) => `\`\`\`${random.pick(["json", ""])}\n${json}\n\`\`\``, "bare"],
  "JSON with prose around it": [(json, _valid, random) => (random.next() < 0.5 ? random.pick(BEFORE) + json : json + random.pick(AFTER)), "bare"],
};

export function syntacticMistakes(tool: string, source: string, valid: unknown, random: Seeded): CorpusCase[] {
  const json = JSON.stringify(valid);
  const out: CorpusCase[] = [];
  for (const [mistake, [make, fix]] of Object.entries(TEXT_CLASSES)) {
    const text = make(json, valid, random);
    if (text === undefined || parses(text)) continue;
    out.push({ id: `${tool}: ${mistake} 0`, source, tool, mistake, args: valid, text, expect: { op: "text", fix } });
  }
  return out;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The value as Python's repr would write it: every string and name in single quotes. Undefined when a string holds a quote. */
function singleQuoted(value: unknown): string | undefined {
  if (typeof value === "string") return /['"\\\n]/.test(value) ? undefined : `'${value}'`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = singleQuoted(item);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(", ")}]`;
  }
  for (const [key, item] of Object.entries(value)) {
    const name = singleQuoted(key);
    const text = singleQuoted(item);
    if (name === undefined || text === undefined) return undefined;
    parts.push(`${name}: ${text}`);
  }
  return parts.length === 0 ? undefined : `{${parts.join(", ")}}`;
}
