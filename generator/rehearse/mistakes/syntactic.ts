// The syntactic mistakes: the valid call written as text that is not one JSON object, as models
// write it. Each is made from the valid call's own JSON, once per tool, and names the text fix
// the envelope must carry (literal-repairer.ts reads it): cut off (no literal fix: the rest of
// the call is lost), single quotes, a trailing comma, a Markdown code fence, prose before or
// after, and Python's `True`, `False` and `None` for JSON's literals.
import type { CorpusCase } from "../mistake-case.ts";
import type { TextFix } from "../literal-repairer.ts";
import type { Seeded } from "./seeded.ts";
import { stringEnd } from "../json-text.ts";

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
  "Python literals in the JSON text": [(json) => pythonLiterals(json), "literals"],
};

const PYTHON: Readonly<Record<string, string>> = { true: "True", false: "False", null: "None" };

/** The JSON text with every `true`, `false` and `null` outside strings as Python writes it; undefined when it has none. */
function pythonLiterals(json: string): string | undefined {
  let out = "";
  let changed = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i] as string;
    if (c === '"') {
      const end = stringEnd(json, i);
      out += json.slice(i, end + 1);
      i = end;
      continue;
    }
    // JSON.stringify's output: outside strings, a word is always one of the three literals.
    const word = /^(?:true|false|null)/.exec(json.slice(i, i + 5))?.[0];
    if (word === undefined) out += c;
    else {
      out += PYTHON[word];
      i += word.length - 1;
      changed = true;
    }
  }
  return changed ? out : undefined;
}

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
