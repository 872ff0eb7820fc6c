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
