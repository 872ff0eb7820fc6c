// Which field names are secret: the one list of secret words (`DEFAULT_SECRET_NAMES`) and how
// a name is read as words to match them (`password_confirmation`, `passwordConfirmation` and
// `userpassword` are secret; `max_tokens` is not). redact.ts builds each tool's rules from these.

/**
 * Field names redacted by default: the one list (docs/ledger.md#redaction shows it). A key is
 * secret when one of them is a word or a run of words of the key, or its end: case is ignored,
 * and words are split at `-`, `_`, `.`, spaces, digits and camelCase humps, so `x-api-key`,
 * `API_KEY`, `apiKey`, `clientSecret`, `refresh_token`, `password_confirmation`,
 * `passwordConfirmation`, `card_number`, `otp_code` and `userpassword` are secret;
 * `max_tokens`, `tokenizer` or `options` are not. A name of three letters or fewer (`pin`,
 * `otp`, `ssn`) counts only as a whole word (`user_pin`, `pinCode`), not as an end (`spin`).
 */
export const DEFAULT_SECRET_NAMES: readonly string[] = Object.freeze([
  "password",
  "passwd",
  "passphrase",
  "passcode",
  "pwd",
  "secret",
  "token",
  "apiKey",
  "accessKey",
  "privateKey",
  "credential",
  "credentials",
  "authorization",
  "authorisation",
  "bearer",
  "jwt",
  "otp",
  "totp",
  "mfaCode",
  "pin",
  "cookie",
  "sessionId",
  "csrf",
  "xsrf",
  "ssn",
  "cardNumber",
  "cvv",
  "cvc",
  "securityCode",
]);

/** A field name as a pattern: its words in any case, separators allowed between them. */
export function namePattern(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[-_.\s]+/)
    .filter((word) => word !== "")
    .map((word) => word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return words.join("[-_.\\s]*");
}

/** A key as lower-case words separated by single spaces: split at separators, digits and camelCase humps. */
export function keyWords(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, (_all, a, b, c, d) => (a === undefined ? `${c} ${d}` : `${a} ${b}`))
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")
    .join(" ");
}

/** A field name's words as a pattern over `keyWords`: `apiKey` matches `api key` and `apikey`. */
export function wordPattern(name: string): string {
  return keyWords(name)
    .split(" ")
    .filter((word) => word !== "")
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(" ?");
}

/** The separator run `namePattern` puts between a name's words: one token of `anyOfPatterns`. */
const SEPARATORS = "[-_.\\s]*";

/** A trie over the tokens of `namePattern`'s output: a literal character, an escaped one, or `SEPARATORS`. */
interface Trie {
  /** A pattern ends here: any longer one through this node matches only where it does. */
  end: boolean;
  readonly next: Map<string, Trie>;
}

/**
 * One regular expression matching where any of `patterns` (outputs of `namePattern`, or escaped
 * literals) matches: the same language as `patterns.join("|")` for `test`, written as a trie so
 * the engine tries each letter once per position rather than once per name. The ledger asks it
 * of every raw text it writes, and the plain alternation of the 29 default names was a quarter
 * of a clean line (about twice this one's cost, same texts, same answers).
 *
 * Why it is the same: alternation is a union, and concatenation distributes over it, so
 * sharing a prefix (`pass(?:word|wd)`) changes no language; a pattern that is a token prefix of
 * another (`credential`, `credentials`) matches wherever the longer one does, so the longer one
 * is dropped, which `test` cannot tell apart. Case is the caller's flag (`i`).
 */
export function anyOfPatterns(patterns: readonly string[]): string {
  const root: Trie = { end: false, next: new Map() };
  for (const pattern of patterns) {
    let node = root;
    for (const token of patternTokens(pattern)) {
      let child = node.next.get(token);
      if (child === undefined) node.next.set(token, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  return trieSource(root);
}

function patternTokens(pattern: string): string[] {
  const tokens: string[] = [];
  for (let at = 0; at < pattern.length; ) {
    if (pattern.startsWith(SEPARATORS, at)) {
      tokens.push(SEPARATORS);
      at += SEPARATORS.length;
    } else if (pattern[at] === "\\") {
      tokens.push(pattern.slice(at, at + 2));
      at += 2;
    } else tokens.push(pattern[at++] as string);
  }
  return tokens;
}

function trieSource(node: Trie): string {
  // A pattern ended here: what follows can only lengthen a match `test` already has.
  if (node.end) return "";
  const branches = [...node.next].map(([token, child]) => token + trieSource(child));
  return branches.length === 1 ? (branches[0] as string) : `(?:${branches.join("|")})`;
}
