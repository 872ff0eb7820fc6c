// The redaction rules of one tool, compiled once from its schema and the redaction options: which
// key names are secret, which pointers are redacted, the text scan that decides whether a raw
// text may mention a secret, and what the schema proves about passing texts (redact.ts uses them).
import type { JsonSchema } from "../contract/tool-spec.ts";
import type { RedactionOptions } from "../contract/redaction.ts";
import { pointerTokens } from "../json/json-pointer.ts";
import { closedWithoutSecretNames, declaredKeysAreSafe, writeOnlyPointers } from "./schema-secrets.ts";
import { anyOfPatterns, DEFAULT_SECRET_NAMES, keyWords, namePattern, wordPattern } from "./secret-names.ts";

export interface Rules {
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
  /**
   * No name the schema declares is secret, and no redacted location can be spelled with declared
   * keys alone: a passing text whose keys are all declared holds no secret (`declaredKeysAreSafe`).
   */
  readonly declaredKeysAreSafe: boolean;
}

/** The separator run `namePattern` writes between a name's words, and what the text scan reads there instead. */
const NAME_SEPARATORS = "[-_.\\s]*";
const ANY_SEPARATORS = "[^A-Za-z0-9]*";

export function compileRules(
  schema: JsonSchema,
  options: Exclude<RedactionOptions, false>,
  writeOnly: readonly string[] | undefined,
  located: readonly string[],
): Rules {
  const listed = [...(options.replaceDefaults ? [] : DEFAULT_SECRET_NAMES), ...(options.fields ?? [])];
  // A name of three letters or fewer (`pin`, `otp`, `ssn`) is matched as a word only: as a
  // key's end it would catch `spin`, `laptop`.
  const names = listed
    .filter((name) => name.replace(/[^A-Za-z0-9]/g, "").length > 3)
    .map(namePattern)
    .filter((name) => name !== "");
  const patterns = [...(options.pointers ?? []), ...located, ...(options.writeOnly === false ? [] : (writeOnly ?? writeOnlyPointers(schema)))];
  const pointers = patterns.map((pointer) => pointerTokens(pointer));
  // A pointer must also be caught in raw text: by its last named token (a `writeOnly` field
  // named `pin`; for `/cards/*`, the key `cards` holding the values); one made only of `*`
  // matches every text.
  const words = new Set(listed.map(namePattern).filter((name) => name !== ""));
  let always = false;
  for (const tokens of pointers) {
    const last = tokens.findLast((token) => token !== "*");
    if (last === undefined) always = true;
    else words.add(namePattern(last) || last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  }
  // A key is secret when a name is among its words (`keyWords`), which any character that is not
  // an ASCII letter or digit may split (`api:key`, `api/key`), so a text's names are matched
  // across any run of such characters, not only `-`, `_`, `.` and spaces (`#mentions` adds the
  // two characters that lower-case into ASCII letters).
  const mention = always ? /(?:)/ : words.size === 0 ? /(?!)/ : new RegExp(anyOfPatterns([...words]).replaceAll(NAME_SEPARATORS, ANY_SEPARATORS), "i");
  // A secret name at the key's end (`userpassword`), or as whole words anywhere in it
  // (`password_confirmation`, `passwordConfirmation`): the key's words are read with
  // `keyWords`, the names' words joined by optional spaces (`apikey` is `api key` too).
  const wordNames = listed.map(wordPattern).filter((name) => name !== "");
  const secretKey = names.length === 0 ? /(?!)/ : new RegExp(`(?:${names.join("|")})$`, "i");
  const secretWords = wordNames.length === 0 ? /(?!)/ : new RegExp(`(?:^| )(?:${wordNames.join("|")})(?: |$)`);
  // Either test finds the letters and digits of a name's words (as `keyWords` reads it) in the
  // key, in order, with only characters that are not ASCII letters or digits between words,
  // case ignored. One trie over those words asks that first, so a key it does not match (most
  // keys) is never read as words, which cost about ten times the test. The two characters that
  // lower-case into ASCII letters are let through, as `#mentions` lets them through.
  const keyNames = listed.map((name) => keyWords(name).replaceAll(" ", NAME_SEPARATORS)).filter((name) => name !== "");
  const keyScan = keyNames.length === 0 ? /(?!)/ : new RegExp(anyOfPatterns(keyNames).replaceAll(NAME_SEPARATORS, ANY_SEPARATORS), "i");
  const mayBeSecret = (key: string): boolean => keyScan.test(key) || key.includes("\u0130") || key.includes("\u212a");
  const isSecretName = (key: string): boolean => mayBeSecret(key) && (secretKey.test(key) || secretWords.test(keyWords(key)));
  return {
    mention,
    isSecretName,
    pointers,
    onlySchemaKeysAreSafe: pointers.length === 0 && closedWithoutSecretNames(schema, isSecretName),
    declaredKeysAreSafe: declaredKeysAreSafe(schema, isSecretName, pointers),
  };
}
