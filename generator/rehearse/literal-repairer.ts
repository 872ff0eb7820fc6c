// A repairer that does only what an envelope's messages literally say. It reads the arguments it
// sent and the errors, never the schema, and knows this grammar (docs/errors.md), one message form
// per instruction, found anywhere in a message:
//   send <JSON>                 set the value at the error's path to <JSON>
//   must be exactly <JSON>      the same
//   did you mean <JSON>? Rename it.   unknown field: rename the field to <JSON>
//   did you mean <JSON>?        a value: set it to <JSON> (an unknown field without "Rename it." is not renamed)
//   move it to <pointer>        move the value at the error's path to <pointer>
//   move <pointer> here         move the value at <pointer> to the error's path
//   move <pointer> to <pointer> move the value at the first pointer to the second (one error may list many)
//   remove it / omit it         delete the field at the error's path
// and four forms that name no value, for a value the message may not quote (a secret, a text
// too long to repeat); they act on the value the repairer itself sent at the error's path:
//   send its only item alone, without the brackets   the list sent there: its one item
//   send the same <type> inside [ and ]              the value sent there, in a list of one
//   send the value itself, not a string of it        the JSON text sent there: the value it spells
//   send the same text with a dash after its 8th, 12th, ... characters   the text sent there, dashed so
// Anything else ("ask the user", "must be <= 2", "for example 1299") is not an instruction.
import { pointerTokens } from "../../templates/runtime/json/json-pointer.ts";
import { stringEnd } from "./json-text.ts";

export interface EnvelopeError {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

export type Instruction =
  | { readonly op: "set"; readonly path: string; readonly value: unknown }
  | { readonly op: "rename"; readonly path: string; readonly to: string }
  | { readonly op: "move"; readonly from: string; readonly to: string }
  | { readonly op: "remove"; readonly path: string };

/**
 * Every instruction one error's message carries, in the grammar above. `sent` is the call the
 * message is about: the forms that name no value read it (without it they give nothing).
 */
export function instructionsOf(error: EnvelopeError, sent?: unknown): Instruction[] {
  const found: Instruction[] = [];
  const text = error.message;
  const own = sent === undefined ? undefined : ownValue(text, get(sent, error.path));
  if (own !== undefined) found.push({ op: "set", path: error.path, value: own.value });
  for (const match of text.matchAll(/\b(?:send|must be exactly) (?=["[{\d-]|true\b|false\b|null\b)/g)) {
    const value = readJson(text, (match.index ?? 0) + match[0].length);
    if (value.ok) found.push({ op: "set", path: error.path, value: value.value });
  }
  for (const match of text.matchAll(/did you mean (?=")/g)) {
    const value = readJson(text, (match.index ?? 0) + match[0].length);
    if (!value.ok) continue;
    if (error.rule === "additionalProperties") {
      if (typeof value.value === "string" && /\bRename it\b/.test(text)) found.push({ op: "rename", path: error.path, to: value.value });
    } else found.push({ op: "set", path: error.path, value: value.value });
  }
  for (const match of text.matchAll(/\bmove it to (\/\S*?)[.;,]?(?=\s|$)/g)) found.push({ op: "move", from: error.path, to: match[1] as string });
  for (const match of text.matchAll(/\bmove (\/\S*?) here\b/g)) found.push({ op: "move", from: match[1] as string, to: error.path });
  for (const match of text.matchAll(/\bmove (\/\S*) to (\/\S*?)[.;,]?(?=\s|$)/g)) found.push({ op: "move", from: match[1] as string, to: match[2] as string });
  if (/\b(?:remove|omit) it\b/.test(text)) found.push({ op: "remove", path: error.path });
  return found;
}

/**
 * The value a form that names no value means, from the value sent at the error's path; undefined
 * when the message has no such form or the sent value is not what the form speaks of.
 */
function ownValue(text: string, at: unknown): { readonly value: unknown } | undefined {
  if (/\bsend its only item alone, without the brackets\b/.test(text)) return Array.isArray(at) && at.length === 1 ? { value: at[0] } : undefined;
  if (/\bsend the same \w+ inside \[ and \]/.test(text)) return at === undefined ? undefined : { value: [at] };
  const dashes = /\bsend the same text with a dash after its ((?:\d+(?:st|nd|rd|th)(?:, | and )?)+) characters\b/.exec(text);
  if (dashes !== null && typeof at === "string") {
    const after = [...(dashes[1] as string).matchAll(/\d+/g)].map(Number).sort((a, b) => b - a);
    if (after.some((position) => position >= at.length)) return undefined;
    return { value: after.reduce((dashed, position) => `${dashed.slice(0, position)}-${dashed.slice(position)}`, at) };
  }
  if (/\bsend the value itself, not a string of it\b/.test(text) && typeof at === "string") {
    try {
      return { value: JSON.parse(at) as unknown };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The arguments with every instruction of `errors` applied: moves and renames first, then values, then removals. */
export function repair(args: unknown, errors: readonly EnvelopeError[]): unknown {
  const instructions = errors.flatMap((error) => instructionsOf(error, args));
  const out = structuredClone(args);
  let root: unknown = out;
  const order = ["move", "rename", "set", "remove"] as const;
  for (const op of order) {
    for (const instruction of instructions) {
      if (instruction.op !== op) continue;
      switch (instruction.op) {
        case "move": {
          const value = get(root, instruction.from);
          if (value === undefined) break;
          remove(root, instruction.from);
          root = put(root, instruction.to, value);
          break;
        }
        case "rename": {
          const value = get(root, instruction.path);
          if (value === undefined) break;
          remove(root, instruction.path);
          const tokens = pointerTokens(instruction.path);
          tokens[tokens.length - 1] = instruction.to;
          root = put(root, toPointer(tokens), value);
          break;
        }
        case "set":
          root = put(root, instruction.path, instruction.value);
          break;
        case "remove":
          remove(root, instruction.path);
          break;
      }
    }
  }
  return root;
}

function readJson(text: string, start: number): { ok: true; value: unknown } | { ok: false } {
  // The longest prefix from `start` that is one JSON value.
  for (let end = text.length; end > start; end--) {
    const candidate = text.slice(start, end);
    if (/\s$/.test(candidate)) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // shorter
    }
  }
  return { ok: false };
}

function toPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The value at a JSON Pointer, or undefined where there is none. */
export function get(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function put(root: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return value;
  let node = root as Record<string, unknown>;
  for (const [index, token] of tokens.slice(0, -1).entries()) {
    const next = node[token];
    // A place that is not there yet is made as its pointer reads: `/entities/0/name` makes a list.
    if (next === null || typeof next !== "object") node[token] = /^\d+$/.test(tokens[index + 1] as string) ? [] : {};
    node = node[token] as Record<string, unknown>;
  }
  const last = tokens[tokens.length - 1] as string;
  if (Array.isArray(node)) node[Number(last)] = value;
  else node[last] = value;
  return root;
}

function remove(root: unknown, pointer: string): void {
  const tokens = pointerTokens(pointer);
  const parent = get(root, toPointer(tokens.slice(0, -1)));
  if (parent !== null && typeof parent === "object" && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[tokens[tokens.length - 1] as string];
}

// A call that is not JSON has no value to apply the instructions above to: the repairer reads
// its syntactic errors as fixes of the text instead, one message form per fix:
//   double quotes around every string        quotes: every single-quoted string double-quoted
//   found a comma ... at character <n> ... remove it   comma: the character at <n> deleted
//   without Markdown code fences or text around it / with nothing before or after it
//                                            bare: the text from the first { to its matching }
//   JSON writes its literals in lower case   literals: Python's True, False, None outside strings
//                                            written true, false, null
//   cut off ... call again with the complete arguments   resend: no literal fix (the rest is lost)

/** The text fixes of the grammar; `resend` has none a repairer can apply. */
export type TextFix = "quotes" | "comma" | "bare" | "literals" | "resend";

export function textFixesOf(error: EnvelopeError): TextFix[] {
  const text = error.message;
  const found: TextFix[] = [];
  if (/double quotes around every string/.test(text)) found.push("quotes");
  if (/found a comma\b.*? at character \d+.*\bremove it\b/.test(text)) found.push("comma");
  if (/without Markdown code fences or text around it|with nothing before or after it/.test(text)) found.push("bare");
  if (/JSON writes its literals in lower case/.test(text)) found.push("literals");
  if (/cut off.*call again with the complete arguments/.test(text)) found.push("resend");
  return found;
}

/** The text with every text fix of `errors` applied (comma deletions first, from the end, so offsets hold). */
export function repairText(text: string, errors: readonly EnvelopeError[]): string {
  let out = text;
  const commas = errors
    .filter((error) => textFixesOf(error).includes("comma"))
    .map((error) => Number(/at character (\d+)/.exec(error.message)?.[1]))
    .filter((at) => out[at] === ",")
    .sort((a, b) => b - a);
  for (const at of commas) out = out.slice(0, at) + out.slice(at + 1);
  const fixes = errors.flatMap(textFixesOf);
  if (fixes.includes("bare")) out = bareObject(out);
  if (fixes.includes("quotes")) out = doubleQuoted(out);
  if (fixes.includes("literals")) out = lowerCaseLiterals(out);
  return out;
}

const JSON_WORDS: Readonly<Record<string, string>> = { True: "true", False: "false", None: "null" };

/** Every bare `True`, `False` and `None` outside a double-quoted string written as JSON's literal. */
function lowerCaseLiterals(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end + 1);
      i = end;
      continue;
    }
    const word = /^(?:True|False|None)(?![\w$])/.exec(text.slice(i, i + 6))?.[0];
    if (word !== undefined && !/[\w$]/.test(text[i - 1] ?? "")) {
      out += JSON_WORDS[word];
      i += word.length - 1;
    } else out += c;
  }
  return out;
}

/** From the first `{` to the `}` that closes it, strings skipped; the text itself when there is none. */
function bareObject(text: string): string {
  const start = text.indexOf("{");
  if (start < 0) return text;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

/** Every `'...'` outside a double-quoted string written as a JSON string. */
function doubleQuoted(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return out + text.slice(i);
      out += JSON.stringify(text.slice(i + 1, end));
      i = end;
    } else out += c;
  }
  return out;
}
