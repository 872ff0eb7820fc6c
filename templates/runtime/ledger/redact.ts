// Redaction of secrets before a ledger entry leaves the process. Which fields count as secret is
// decided by name (`password`, `apiKey`, `token`... after case and separators are folded) and by
// the schema (`writeOnly` properties). The schema part is computed once per tool, the first time
// an entry of that tool is serialised, so the call path never pays for it.
//
// Raw text is the hard part: it may not be JSON at all (a syntactic failure), and a key may be
// spelled with `\u` escapes. So a raw text is kept verbatim only when it provably holds no
// secret key: none of the secret names occurs in it (separators and case ignored) and it has no
// `\u` escape. Otherwise it is parsed; JSON gets its secret values replaced; text that does not
// parse, or JSON that repeats a key (the copy `JSON.parse` drops could hold a secret the value
// does not show), is replaced by a marker with its length, never kept.
import type { ArgumentError, Coercion } from "../contract/outcome.ts";
import type { Resolution } from "../contract/resolution.ts";
import type { HttpBinding, JsonSchema, JsonValue } from "../contract/tool-spec.ts";
import type { LedgerAttempt } from "../contract/ledger-entry.ts";
import type { RedactionOptions } from "../contract/redaction.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";
import { findDuplicateKeys } from "../parse/duplicate-keys.ts";
import { keyTokens } from "../parse/key-tokens.ts";
import { holdsSecret, keyCount, matches, REDACTED, redactValue } from "./redact-value.ts";
import { compileRules, type Rules } from "./redaction-rules.ts";
import { writeOnlyPointers } from "./schema-secrets.ts";
import { DEFAULT_SECRET_NAMES } from "./secret-names.ts";

export type { RedactionOptions };
export { DEFAULT_SECRET_NAMES, REDACTED, writeOnlyPointers };

/**
 * Header and cookie parameters of an OpenAPI operation, as argument pointers: redacted by their
 * location, whatever they are named (a `session` cookie, an `X-Tenant-Signature` header).
 */
export function parameterPointers(http: HttpBinding | undefined): string[] {
  if (http === undefined) return [];
  return http.parameters.filter((parameter) => parameter.in === "header" || parameter.in === "cookie").map((parameter) => `/${escapeToken(parameter.arg)}`);
}

/** The redactor of one tool, from what its spec says (schema, `writeOnly`, header and cookie parameters) and the options. */
export function redactorFor(
  spec: { readonly inputSchema: JsonSchema; readonly writeOnly?: readonly string[]; readonly http?: HttpBinding },
  options: Exclude<RedactionOptions, false> = {},
): Redactor {
  return new Redactor(spec.inputSchema, options, spec.writeOnly, parameterPointers(spec.http));
}

/** One tool's redaction rules, built lazily from its schema and the guard's options. */
export class Redactor {
  readonly #schema: JsonSchema;
  readonly #options: Exclude<RedactionOptions, false>;
  #rules: Rules | undefined;

  readonly #writeOnly: readonly string[] | undefined;
  readonly #located: readonly string[];

  /**
   * `writeOnly`: the schema's write-only locations as the generator found them; found from
   * `schema` when absent. `located`: pointers redacted by where they are (header and cookie
   * parameters), whatever the options say about `writeOnly`.
   */
  constructor(schema: JsonSchema, options: Exclude<RedactionOptions, false> = {}, writeOnly?: readonly string[], located: readonly string[] = []) {
    this.#schema = schema;
    this.#options = options;
    this.#writeOnly = writeOnly;
    this.#located = located;
  }

  get #compiled(): Rules {
    return (this.#rules ??= compileRules(this.#schema, this.#options, this.#writeOnly, this.#located));
  }

  /**
   * The raw text as it may be written: itself when it holds no secret, its JSON with secret
   * values replaced, or a marker with its length when it cannot be parsed. `validated` and
   * `keysDeclared` as for `rawIsKept`.
   */
  raw(text: string, validated = false, keysDeclared = false): { readonly text: string; readonly redacted: number } {
    if (this.rawIsKept(text, validated, keysDeclared)) return { text, redacted: 0 };
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      return { text: `${REDACTED} ${text.length} characters that are not JSON and may name a secret field`, redacted: 1 };
    }
    // A repeated key's lost copy is in the text and not in the value: what it holds cannot be
    // redacted from the value, so the text is not kept.
    if (keyTokens(text) > keyCount(value) && findDuplicateKeys(text, 1).length > 0)
      return { text: `${REDACTED} ${text.length} characters of JSON that repeat a key and may name a secret field`, redacted: 1 };
    const count = redactValue(value, [], this.#compiled);
    return count === 0 ? { text, redacted: 0 } : { text: JSON.stringify(value), redacted: count };
  }

  /**
   * Whether `raw(text, validated, keysDeclared)` keeps `text` as it is, without building its
   * answer: a text that passed a schema whose objects are all closed has only the schema's own
   * keys; so has a passing text whose keys the tool's walk found all declared (`keysDeclared`,
   * ledger/declared-keys.ts), which is safe when the schema declares no secret; and a text that
   * names no secret holds none.
   */
  rawIsKept(text: string, validated: boolean, keysDeclared = false): boolean {
    if (validated) {
      const rules = this.#compiled;
      if (rules.onlySchemaKeysAreSafe || (keysDeclared && rules.declaredKeysAreSafe)) return true;
    }
    return !this.#mentions(text);
  }

  /**
   * Whether validated arguments need no scan: the schema admits only its own, non-secret keys,
   * and `addedKeys` (the targets references were resolved into) are not secret either.
   */
  validatedIsSafe(addedKeys: readonly string[]): boolean {
    const rules = this.#compiled;
    return rules.onlySchemaKeysAreSafe && !addedKeys.some(rules.isSecretName);
  }

  /**
   * Whether the arguments derived from the raw text `raw` (coerced, references resolved into
   * `addedKeys`) need no scan: the schema shortcut above, or a text that names no secret key
   * (a key a coercion turns out of a string is spelled in the text too) and added keys that are
   * neither secret names nor the start of a redacted location.
   */
  argumentsAreSafe(raw: string | undefined, addedKeys: readonly string[]): boolean {
    if (this.validatedIsSafe(addedKeys)) return true;
    if (raw === undefined || this.#mentions(raw)) return false;
    const rules = this.#compiled;
    // A pointer that reaches an added key names it (its other tokens are keys the text has).
    return !addedKeys.some((key) => rules.isSecretName(key) || rules.pointers.some((pattern) => pattern.includes(key)));
  }

  #lastText: string | undefined;
  #lastMention = false;

  /**
   * Whether a secret key may occur in `text`; the last answer is kept (an entry asks twice). A `\u`
   * escape may spell a key; `İ` and the Kelvin sign are the only characters that lower-casing
   * (`keyWords`) turns into ASCII letters (`apİkey` reads as the words `api key`), which no
   * case-insensitive match of the text sees. A text of one-byte characters holds neither.
   */
  #mentions(text: string): boolean {
    if (text === this.#lastText) return this.#lastMention;
    this.#lastText = text;
    return (this.#lastMention = this.#compiled.mention.test(text) || text.includes("\\u") || text.includes("\u0130") || text.includes("\u212a"));
  }

  /**
   * Replaces secret values in `value`, which must be the caller's own fresh copy; returns how
   * many. `mark` gives the replacement of each (`"[redacted]"` by default).
   */
  valueInPlace(value: JsonValue, mark?: (secret: unknown) => unknown): number {
    return redactValue(value, [], this.#compiled, mark);
  }

  /**
   * Whether `valueInPlace` would replace anything in `value` (which it leaves as it is): what a
   * failed attempt's envelope asks of its parsed value before quoting from it. A walk of the
   * value's keys, each key's answer kept (a tool's texts repeat the schema's keys), where a scan
   * of the text for secret names cost about 5 ns a character.
   */
  holdsSecret(value: JsonValue): boolean {
    return holdsSecret(value, this.#path, this.#keyRulesOf(this.#compiled));
  }

  /**
   * The test `holdsSecret` asks of each key, when keys alone decide its answer (nothing is
   * redacted by location): then `holdsSecret(value)` is whether it says yes to any key of
   * `value` at any depth, which a walk the call makes anyway can ask on its way (call/attempt.ts,
   * through the hazard walk). Undefined when pointer patterns decide too.
   */
  secretKeyTest(): ((key: string) => boolean) | undefined {
    const rules = this.#compiled;
    return rules.pointers.length > 0 ? undefined : this.#keyRulesOf(rules).isSecretName;
  }

  #keyRulesOf(rules: Rules): { readonly isSecretName: (key: string) => boolean; readonly pointers: readonly (readonly string[])[] } {
    return (this.#keyRules ??= { isSecretName: (key) => this.#isSecretName(key, rules), pointers: rules.pointers });
  }

  /** `holdsSecret`'s path, empty between calls (the walk pops what it pushes): one list, not one per failed call. */
  readonly #path: string[] = [];

  #keyRules: { readonly isSecretName: (key: string) => boolean; readonly pointers: readonly (readonly string[])[] } | undefined;
  /** Answers of `isSecretName` by key, for `holdsSecret`. */
  readonly #secretNames = new Map<string, boolean>();

  #isSecretName(key: string, rules: Rules): boolean {
    const known = this.#secretNames.get(key);
    if (known !== undefined) return known;
    const secret = rules.isSecretName(key);
    if (this.#secretNames.size >= 1024) this.#secretNames.clear(); // bounded: a model may send keys no schema has
    this.#secretNames.set(key, secret);
    return secret;
  }

  /** Answers of `isSecretPath`: a tool's entries ask about the same few paths again and again. */
  readonly #secretPaths = new Map<string, boolean>();

  /** Whether a JSON Pointer into the arguments names a secret location. */
  isSecretPath(pointer: string): boolean {
    if (pointer === "") return false;
    const known = this.#secretPaths.get(pointer);
    if (known !== undefined) return known;
    const rules = this.#compiled;
    const tokens = pointerTokens(pointer);
    const secret = tokens.some((token) => rules.isSecretName(token)) || rules.pointers.some((pattern) => matches(pattern, tokens));
    if (this.#secretPaths.size >= 1024) this.#secretPaths.clear(); // bounded: paths with array indexes are many
    this.#secretPaths.set(pointer, secret);
    return secret;
  }

  errors(errors: readonly ArgumentError[]): readonly ArgumentError[] {
    if (!errors.some((error) => this.isSecretPath(error.path))) return errors;
    return errors.map((error) => (this.isSecretPath(error.path) ? { ...error, message: `${REDACTED} (the message may quote a secret field)` } : error));
  }

  /** Resolved identifiers written to a secret property (a `session_token` target) are redacted; so is the text of a secret reference field. */
  resolutions(resolutions: readonly Resolution[] | undefined): readonly Resolution[] | undefined {
    if (resolutions === undefined) return resolutions;
    // One resolution of the field answered last (a resolved call's line, over and over): no lookup.
    if (resolutions.length === 1) {
      const only = resolutions[0] as Resolution;
      const clear = this.#clearField;
      if (clear !== undefined && only.path === clear.path && only.target === clear.target) return resolutions;
      if (!this.#secretTarget(only) && !this.isSecretPath(only.path)) {
        this.#clearField = { path: only.path, target: only.target };
        return resolutions;
      }
    } else if (!resolutions.some((resolution) => this.#secretTarget(resolution) || this.isSecretPath(resolution.path))) return resolutions;
    return resolutions.map((resolution) => {
      const text = this.isSecretPath(resolution.path) ? REDACTED : resolution.text;
      return this.#secretTarget(resolution) || text !== resolution.text ? { ...resolution, text, id: REDACTED } : resolution;
    });
  }

  /** The reference field (path and target) last found to need nothing redacted. */
  #clearField: { readonly path: string; readonly target: string } | undefined;

  /** `#secretTarget`'s last answer per reference field: a tool resolves the same few fields into the same targets. */
  readonly #targets = new Map<string, { readonly target: string; readonly secret: boolean }>();

  #secretTarget(resolution: { readonly path: string; readonly target: string }): boolean {
    const known = this.#targets.get(resolution.path);
    if (known !== undefined && known.target === resolution.target) return known.secret;
    const secret = this.isSecretPath(`${resolution.path.slice(0, resolution.path.lastIndexOf("/"))}/${escapeToken(resolution.target)}`);
    if (this.#targets.size >= 1024) this.#targets.clear(); // bounded: fields inside arrays have an index in their path
    this.#targets.set(resolution.path, { target: resolution.target, secret });
    return secret;
  }

  /**
   * A question's candidates are what the model may pick for the target: under a secret target
   * (`session_token`) or a secret reference field their ids and labels are redacted, as a
   * resolved identifier there would be.
   */
  question(question: LedgerAttempt["question"]): LedgerAttempt["question"] {
    if (question === undefined) return question;
    const secret =
      this.isSecretPath(question.field) || (question.target !== undefined && this.#secretTarget({ path: question.field, target: question.target }));
    if (!secret) return question;
    return { ...question, candidates: question.candidates.map(() => ({ id: REDACTED, label: REDACTED })) };
  }

  coercions(coercions: readonly Coercion[]): readonly Coercion[] {
    if (!coercions.some((coercion) => this.isSecretPath(coercion.path))) return coercions;
    return coercions.map((coercion) => (this.isSecretPath(coercion.path) ? ({ ...coercion, from: REDACTED, to: REDACTED } as unknown as Coercion) : coercion));
  }
}
