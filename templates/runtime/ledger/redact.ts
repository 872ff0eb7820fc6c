// Redaction of secrets before a ledger entry leaves the process. Which fields count as secret is
// decided by name (`password`, `apiKey`, `token`... after case and separators are folded) and by
// the schema (`writeOnly` properties). The schema part is computed once per tool, the first time
// an entry of that tool is serialised, so the call path never pays for it.
//
// Raw text is the hard part: it may not be JSON at all (a syntactic failure), and a key may be
// spelled with `\u` escapes. So a raw text is kept verbatim only when it provably holds no
// secret key: none of the secret names occurs in it (separators and case ignored) and it has no
// `\u` escape. Otherwise it is parsed; JSON gets its secret values replaced; text that does not
// parse is replaced by a marker with its length, never kept.
import type { ArgumentError, Coercion } from "../contract/outcome.ts";
import type { JsonSchema, JsonValue } from "../contract/tool-spec.ts";
import type { RedactionOptions } from "../contract/redaction.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";

export type { RedactionOptions };

/** What replaces a redacted value. */
export const REDACTED = "[redacted]";

/**
 * Field names redacted by default. A key is secret when it ends with one of them, in any case,
 * with `-`, `_`, `.` or spaces allowed where the name changes word (`x-api-key`, `API_KEY`,
 * `clientSecret`, `refresh_token`); `max_tokens` or `tokenizer` are not.
 */
export const DEFAULT_SECRET_NAMES: readonly string[] = Object.freeze([
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "apiKey",
  "accessKey",
  "privateKey",
  "credential",
  "credentials",
  "authorization",
  "authorisation",
  "cookie",
  "sessionId",
  "ssn",
]);

/** One tool's redaction rules, built lazily from its schema and the guard's options. */
export class Redactor {
  readonly #schema: JsonSchema;
  readonly #options: Exclude<RedactionOptions, false>;
  #rules: Rules | undefined;

  readonly #writeOnly: readonly string[] | undefined;

  /** `writeOnly`: the schema's write-only locations as the generator found them; found from `schema` when absent. */
  constructor(schema: JsonSchema, options: Exclude<RedactionOptions, false> = {}, writeOnly?: readonly string[]) {
    this.#schema = schema;
    this.#options = options;
    this.#writeOnly = writeOnly;
  }

  get #compiled(): Rules {
    return (this.#rules ??= compileRules(this.#schema, this.#options, this.#writeOnly));
  }

  /**
   * The raw text as it may be written: itself when it holds no secret, its JSON with secret
   * values replaced, or a marker with its length when it cannot be parsed.
   */
  raw(text: string, validated = false): { readonly text: string; readonly redacted: number } {
    const rules = this.#compiled;
    // A text that passed a schema whose objects are all closed has only the schema's own keys.
    if (validated && rules.onlySchemaKeysAreSafe) return { text, redacted: 0 };
    if (!rules.mention.test(text) && !text.includes("\\u")) return { text, redacted: 0 };
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      return { text: `${REDACTED} ${text.length} characters that are not JSON and may name a secret field`, redacted: 1 };
    }
    const count = redactValue(value, [], rules);
    return count === 0 ? { text, redacted: 0 } : { text: JSON.stringify(value), redacted: count };
  }

  /**
   * Whether validated arguments need no scan: the schema admits only its own, non-secret keys,
   * and `addedKeys` (the targets references were resolved into) are not secret either.
   */
  validatedIsSafe(addedKeys: readonly string[]): boolean {
    const rules = this.#compiled;
    return rules.onlySchemaKeysAreSafe && !addedKeys.some(rules.isSecretName);
  }

  /** Replaces secret values in `value`, which must be the caller's own fresh copy; returns how many. */
  valueInPlace(value: JsonValue): number {
    return redactValue(value, [], this.#compiled);
  }

  /** Whether a JSON Pointer into the arguments names a secret location. */
  isSecretPath(pointer: string): boolean {
    if (pointer === "") return false;
    const rules = this.#compiled;
    const tokens = pointerTokens(pointer);
    return tokens.some((token) => rules.isSecretName(token)) || rules.pointers.some((pattern) => matches(pattern, tokens));
  }

  errors(errors: readonly ArgumentError[]): readonly ArgumentError[] {
    if (!errors.some((error) => this.isSecretPath(error.path))) return errors;
    return errors.map((error) => (this.isSecretPath(error.path) ? { ...error, message: `${REDACTED} (the message may quote a secret field)` } : error));
  }

  coercions(coercions: readonly Coercion[]): readonly Coercion[] {
    if (!coercions.some((coercion) => this.isSecretPath(coercion.path))) return coercions;
    return coercions.map((coercion) => (this.isSecretPath(coercion.path) ? ({ ...coercion, from: REDACTED, to: REDACTED } as unknown as Coercion) : coercion));
  }
}

interface Rules {
  /** Matches any text in which a secret name could occur as a key. */
  readonly mention: RegExp;
  readonly isSecretName: (key: string) => boolean;
  /** Pointer patterns, as token lists, `*` for any one token. */
  readonly pointers: readonly (readonly string[])[];
  /**
   * Every object the schema allows is closed (`additionalProperties: false`), none of its
   * property names is secret, and nothing is redacted by pointer: a raw text that passed
   * validation then holds no secret, and is written without being scanned.
   */
  readonly onlySchemaKeysAreSafe: boolean;
}

/** A field name as a pattern: its words in any case, separators allowed between them. */
function namePattern(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[-_.\s]+/)
    .filter((word) => word !== "")
    .map((word) => word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return words.join("[-_.\\s]*");
}

function compileRules(schema: JsonSchema, options: Exclude<RedactionOptions, false>, writeOnly: readonly string[] | undefined): Rules {
  const names = [...(options.replaceDefaults ? [] : DEFAULT_SECRET_NAMES), ...(options.fields ?? [])].map(namePattern).filter((name) => name !== "");
  const patterns = [...(options.pointers ?? []), ...(options.writeOnly === false ? [] : (writeOnly ?? writeOnlyPointers(schema)))];
  const pointers = patterns.map((pointer) => pointerTokens(pointer));
  // A pointer's last token must also be caught in raw text: a `writeOnly` field named `pin`.
  const words = new Set(names);
  for (const tokens of pointers) {
    const last = tokens.at(-1);
    if (last !== undefined && last !== "*") words.add(namePattern(last) || last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  }
  const mention = words.size === 0 ? /(?!)/ : new RegExp([...words].join("|"), "i");
  const secretKey = names.length === 0 ? /(?!)/ : new RegExp(`(?:${names.join("|")})$`, "i");
  const isSecretName = (key: string): boolean => secretKey.test(key);
  return { mention, isSecretName, pointers, onlySchemaKeysAreSafe: pointers.length === 0 && closedWithoutSecretNames(schema, isSecretName) };
}

function matches(pattern: readonly string[], tokens: readonly string[]): boolean {
  if (pattern.length > tokens.length) return false;
  // A pattern matches the location itself or anything under it.
  for (let index = 0; index < pattern.length; index++) if (pattern[index] !== "*" && pattern[index] !== tokens[index]) return false;
  return true;
}

/** Replaces secret values in place; returns how many were replaced. */
function redactValue(value: JsonValue, path: string[], rules: Rules): number {
  if (value === null || typeof value !== "object") return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(String(index));
      if (rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path))) {
        value[index] = REDACTED;
        count++;
      } else count += redactValue(value[index] as JsonValue, path, rules);
      path.pop();
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    path.push(key);
    if (rules.isSecretName(key) || rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path))) {
      Object.defineProperty(value, key, { value: REDACTED, writable: true, enumerable: true, configurable: true });
      count++;
    } else count += redactValue(value[key] as JsonValue, path, rules);
    path.pop();
  }
  return count;
}

/**
 * The JSON Pointers (`*` for any array index or property) of the schema's `writeOnly`
 * properties. Every applicator is followed, `anyOf`/`oneOf`/conditionals included: for secrets,
 * a location that may be write-only is treated as write-only.
 */
export function writeOnlyPointers(root: JsonSchema): string[] {
  const found = new Set<string>();
  let visits = 0;
  const visit = (schema: unknown, at: string, seen: ReadonlySet<string>): void => {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema) || ++visits > 20_000) return;
    const node = schema as Record<string, unknown>;
    if (node.writeOnly === true && at !== "") found.add(at);
    const ref = typeof node.$ref === "string" && node.$ref.startsWith("#") ? node.$ref : undefined;
    if (ref && !seen.has(ref)) {
      let target: unknown = root;
      for (const token of pointerTokens(decodeURIComponent(ref.slice(1)))) target = (target as Record<string, unknown> | undefined)?.[token];
      visit(target, at, new Set([...seen, ref]));
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = node[key];
      if (Array.isArray(list)) for (const branch of list) visit(branch, at, seen);
    }
    for (const key of ["if", "then", "else", "not"]) visit(node[key], at, seen);
    if (node.properties && typeof node.properties === "object") {
      for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) visit(child, `${at}/${escapeToken(name)}`, seen);
    }
    for (const key of ["additionalProperties", "items", "additionalItems", "unevaluatedProperties", "unevaluatedItems"]) visit(node[key], `${at}/*`, seen);
    if (node.patternProperties && typeof node.patternProperties === "object")
      for (const child of Object.values(node.patternProperties as object)) visit(child, `${at}/*`, seen);
    if (Array.isArray(node.prefixItems)) for (const [index, child] of node.prefixItems.entries()) visit(child, `${at}/${index}`, seen);
  };
  visit(root, "", new Set());
  return [...found].sort();
}

/** Whether every object location of the schema is closed and names no secret property. */
function closedWithoutSecretNames(root: JsonSchema, isSecretName: (key: string) => boolean): boolean {
  let visits = 0;
  const typesOf = (node: Record<string, unknown>): readonly unknown[] | undefined =>
    typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  // A location that cannot hold an object or an array needs no closing (`{type: "string"}`).
  const closed = (schema: unknown): boolean => {
    if (++visits > 20_000) return false;
    if (typeof schema === "boolean") return !schema;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
    const node = schema as Record<string, unknown>;
    const types = typesOf(node);
    if (types && !types.includes("object") && !types.includes("array")) return true;
    if (node.$ref !== undefined || node.$dynamicRef !== undefined || node.patternProperties !== undefined) return false;
    const mayBeObject = types === undefined || types.includes("object");
    if (mayBeObject && node.additionalProperties !== false && node.unevaluatedProperties !== false) return false;
    if (node.properties && typeof node.properties === "object") {
      for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) if (isSecretName(name) || !closed(child)) return false;
    }
    for (const key of ["items", "additionalItems", "unevaluatedItems", "contains", "not", "if", "then", "else"])
      if (node[key] !== undefined && !closed(node[key])) return false;
    for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
      const list = node[key];
      if (Array.isArray(list) && !list.every(closed)) return false;
    }
    return true;
  };
  return closed(root);
}
