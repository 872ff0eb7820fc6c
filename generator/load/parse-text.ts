// Turns a schema file's text into a value. YAML is read with alias expansion bounded (a YAML
// alias bomb is refused instead of expanding into gigabytes) and JSON with a size cap.
import { CORE_SCHEMA, load as loadYamlFast } from "js-yaml";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { InputError } from "../errors.ts";
import { pointerToken } from "../json-pointer.ts";

/** Largest schema file read, in bytes; a larger one is almost certainly not a tool schema. */
export const MAX_SCHEMA_BYTES: number = 64 * 1024 * 1024;

/**
 * The bound on YAML alias expansion (yaml's `maxAliasCount`: an anchor's size times its aliases,
 * nested anchors counted in full, so exponential expansion is refused at its fourth level).
 * yaml's default of 100 refused real descriptions: Langfuse's 500 KB `openapi.yml` repeats one
 * `security` anchor 155 times.
 */
const MAX_YAML_ALIASES = 1000;

export function isYamlFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** Deepest nesting of objects and arrays in a schema document; real schemas stay far below. */
export const MAX_SCHEMA_DEPTH = 256;

export function parseSchemaText(file: string, text: string): unknown {
  const value = parseText(file, text);
  checkShape(file, value, "", 0);
  return value;
}

// Every later pass over a schema is recursive, so depth is bounded here, once, with an error
// that names the place. `__proto__` keys are refused here too, before any copy (which would turn
// them into prototypes) can lose them.
function checkShape(file: string, value: unknown, at: string, depth: number): void {
  if (value === null || typeof value !== "object") return;
  if (depth >= MAX_SCHEMA_DEPTH) {
    throw new InputError(
      { file, pointer: at },
      `nesting deeper than ${MAX_SCHEMA_DEPTH} levels`,
      "flatten the schema with $defs and $ref; no tool schema needs this depth",
    );
  }
  const proto = Object.getPrototypeOf(value);
  if (Object.hasOwn(value, "__proto__") || (proto !== Object.prototype && proto !== Array.prototype && proto !== null)) {
    throw new InputError(
      { file, pointer: `${at}/__proto__` },
      `the key "__proto__" names JavaScript's prototype, not a property, and cannot be checked faithfully`,
      'rename the key (toolguard refuses "__proto__" rather than generate a validator that ignores it)',
    );
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkShape(file, item, `${at}/${index}`, depth + 1);
  } else {
    for (const [key, child] of Object.entries(value)) checkShape(file, child, `${at}/${pointerToken(key)}`, depth + 1);
  }
}

function parseText(file: string, raw: string): unknown {
  // A byte-order mark is how some editors start every UTF-8 file; JSON allows a reader to skip it.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // An empty YAML document is null, which the readers answer for; empty JSON is a syntax error, worded here.
  if (!isYamlFile(file) && text.trim() === "") {
    throw new InputError({ file, pointer: "" }, "the file is empty", "write the tool's schema into it, or remove it from the folder");
  }
  if (text.length > MAX_SCHEMA_BYTES) {
    throw new InputError(
      { file, pointer: "" },
      `file is ${text.length} bytes, over the ${MAX_SCHEMA_BYTES}-byte limit`,
      "split the document or remove what is not a tool schema",
    );
  }
  if (isYamlFile(file)) {
    const fast = parseYamlFast(text);
    if (fast.ok) return fast.value;
    try {
      return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: true, prettyErrors: true });
    } catch (error) {
      const detail = error instanceof YAMLParseError ? error.message.split("\n")[0] : String(error);
      throw new InputError(
        { file, pointer: "" },
        `not valid YAML: ${detail}`,
        `fix the YAML syntax at the position given; an alias expansion over ${MAX_YAML_ALIASES} nodes (an anchor's size times its aliases) is refused as an alias bomb: write the repeated part once and point to it with $ref`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError({ file, pointer: "" }, `not valid JSON: ${(error as Error).message}`, "fix the JSON syntax at the position given");
  }
}

// A split description is thousands of small YAML files, and `yaml` takes ~2 s on GitHub's 2,581
// (js-yaml ~0.4 s, same values). js-yaml reads the plain case: the YAML 1.2 core schema (no
// timestamps, no merge keys), duplicate keys refused. Anything else goes to `yaml`, which bounds
// alias expansion and words the errors: text that may hold an anchor (`&name` after a space or at
// a line's start: js-yaml has no alias limit), a directive (`%YAML 1.1` changes the schema), or
// text js-yaml refuses (custom tags, complex keys, syntax errors).
const MAY_HOLD_ANCHOR = /(?:^|[\s[{,])&[^\s[\]{},]/m;
const DIRECTIVE = /^%/m;

function parseYamlFast(text: string): { ok: true; value: unknown } | { ok: false } {
  if ((text.includes("&") && MAY_HOLD_ANCHOR.test(text)) || (text.includes("%") && DIRECTIVE.test(text))) return { ok: false };
  try {
    return { ok: true, value: loadYamlFast(text, { schema: CORE_SCHEMA }) };
  } catch {
    return { ok: false };
  }
}
