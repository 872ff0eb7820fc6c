// Runs only after `JSON.parse` has refused the text: finds the first thing that broke it, where,
// and which kind of breakage it is, so the model gets a remedy that fits. It never repairs or
// completes the text; it only reads it.
import { escapeToken } from "../json/json-pointer.ts";

/**
 * `text_around_json`: words before or after the arguments object ("Sure: {...}"), the commonest
 * way a chat-tuned model breaks a call; `invalid_json`: any other text that is not JSON.
 */
export const SYNTAX_RULES = ["truncated", "single_quotes", "trailing_comma", "code_fence", "comment", "text_around_json", "invalid_json"] as const;
export type SyntaxRule = (typeof SYNTAX_RULES)[number];

export interface SyntaxProblem {
  readonly rule: SyntaxRule;
  /** Character offset (UTF-16 units) where the problem starts. */
  readonly offset: number;
  /** JSON Pointer of the value being written when it broke, when that is knowable. */
  readonly pointer: string | undefined;
  /** A few words on what was found, for the message. */
  readonly found: string;
  /** What to do, when what was found calls for more than its rule's remedy (Python's `True`). */
  readonly remedy?: string;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// The control characters JSON forbids inside strings.
const CONTROL = /[\u0000-\u001f]/;
const WORDS = ["true", "false", "null"];
/** Python's spellings of JSON's literals, as models trained on Python write them into JSON. */
const PYTHON_WORDS: Readonly<Record<string, string>> = { True: "true", False: "false", None: "null" };
/** The text fix a literal repairer reads (generator/rehearse/literal-repairer.ts): every such word, outside strings. */
export const PYTHON_LITERALS_REMEDY =
  "JSON writes its literals in lower case: write true, false and null instead of Python's True, False and None, everywhere outside strings";

class Stop {
  readonly problem: SyntaxProblem;
  constructor(problem: SyntaxProblem) {
    this.problem = problem;
  }
}

/** Classifies why `text` is not JSON. `parseMessage` is the engine's error, used as a fallback. */
export function scanSyntax(text: string, parseMessage: string): SyntaxProblem {
  const n = text.length;
  const path: (string | number)[] = [];
  let i = 0;

  const pointer = (): string => path.map((token) => `/${escapeToken(token)}`).join("");
  const stop = (rule: SyntaxRule, offset: number, found: string, remedy?: string): never => {
    throw new Stop({ rule, offset, pointer: pointer(), found, ...(remedy === undefined ? {} : { remedy }) });
  };
  const skipSpace = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else if (c === 0x2f && (text[i + 1] === "/" || text[i + 1] === "*")) stop("comment", i, "a comment");
      else return;
    }
  };
  const ended = (): boolean => {
    skipSpace();
    return i >= n;
  };

  // Native searches over the string's body: a character loop here cost ~15x JSON.parse on a
  // long string cut off before its closing quote.
  const readString = (): string => {
    const start = i;
    const end = closingQuote(text, start);
    const control = CONTROL.exec(end === -1 ? text.slice(start) : text.slice(start, end));
    if (control) return stop("invalid_json", start + control.index, "an unescaped control character inside a string");
    if (end === -1) {
      i = n;
      return stop("truncated", n, "the end of the text inside a string");
    }
    i = end + 1;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return stop("invalid_json", start, "a string with an invalid escape sequence");
    }
  };

  const readNumber = (): void => {
    const start = i;
    while (i < n && isNumberChar(text.charCodeAt(i))) i++;
    const token = text.slice(start, i);
    // A number running into the end of the text may have been cut short even when it reads well.
    if (i >= n) stop("truncated", n, "the end of the text inside a number");
    if (NUMBER.test(token)) return;
    stop("invalid_json", start, `a malformed number ${JSON.stringify(token.slice(0, 20))}`);
  };

  const readWord = (): void => {
    const start = i;
    while (i < n && isWordChar(text.charCodeAt(i))) i++;
    const word = text.slice(start, i);
    if (WORDS.includes(word)) return;
    if (Object.hasOwn(PYTHON_WORDS, word)) stop("invalid_json", start, `Python's ${word} where JSON writes ${PYTHON_WORDS[word]}`, PYTHON_LITERALS_REMEDY);
    if (i >= n && WORDS.some((w) => w.startsWith(word))) stop("truncated", n, "the end of the text inside a literal");
    stop("invalid_json", start, `unquoted text ${JSON.stringify(word.slice(0, 20))}`);
  };

  const readObject = (): void => {
    i++;
    if (ended()) stop("truncated", n, "the end of the text inside an object");
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      if (ended()) stop("truncated", n, "the end of the text where a property name was expected");
      const c = text[i];
      if (c === "'") stop("single_quotes", i, "a single-quoted property name");
      if (c !== '"') stop("invalid_json", i, "a property name that is not double-quoted");
      const key = readString();
      if (ended()) stop("truncated", n, "the end of the text after a property name");
      if (text[i] !== ":") stop("invalid_json", i, `${JSON.stringify(text[i])} where ':' was expected`);
      i++;
      path.push(key);
      readValue();
      path.pop();
      if (ended()) stop("truncated", n, "the end of the text inside an object");
      if (text[i] === "}") {
        i++;
        return;
      }
      if (text[i] !== ",") stop("invalid_json", i, `${JSON.stringify(text[i])} where ',' or '}' was expected`);
      const comma = i++;
      if (!ended() && text[i] === "}") stop("trailing_comma", comma, "a comma before '}'");
    }
  };

  const readArray = (): void => {
    i++;
    path.push(0);
    if (ended()) stop("truncated", n, "the end of the text inside an array");
    path.pop();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      path.push(index);
      readValue();
      path.pop();
      if (ended()) stop("truncated", n, "the end of the text inside an array");
      if (text[i] === "]") {
        i++;
        return;
      }
      if (text[i] !== ",") stop("invalid_json", i, `${JSON.stringify(text[i])} where ',' or ']' was expected`);
      const comma = i++;
      if (!ended() && text[i] === "]") stop("trailing_comma", comma, "a comma before ']'");
    }
  };

  const readValue = (): void => {
    if (ended()) stop("truncated", n, "the end of the text where a value was expected");
    const c = text[i] as string;
    if (c === "{") readObject();
    else if (c === "[") readArray();
    else if (c === '"') readString();
    else if (c === "'") stop("single_quotes", i, "a single-quoted string");
    else if (c === "`") stop("code_fence", i, "a code fence");
    else if (c === "-" || (c >= "0" && c <= "9")) readNumber();
    else if (/[A-Za-z_$]/.test(c)) readWord();
    else stop("invalid_json", i, `the character ${JSON.stringify(c)}`);
  };

  try {
    const fence = text.search(/\S/);
    if (fence >= 0 && text.startsWith("```", fence)) stop("code_fence", fence, "a Markdown code fence around the JSON");
    if (text.trim() === "") stop("invalid_json", 0, "no arguments at all");
    const opening = text.search(/\S/);
    if (!"{[".includes(text.charAt(opening)) && text.includes("{", opening)) stop("text_around_json", opening, "text before the arguments object");
    readValue();
    if (!ended()) {
      if (text.startsWith("```", i)) stop("code_fence", i, "a Markdown code fence after the JSON");
      path.length = 0;
      stop("text_around_json", i, "more text after the complete arguments object");
    }
  } catch (caught) {
    if (caught instanceof Stop) return caught.problem;
    throw caught;
  }
  const position = /position (\d+)/.exec(parseMessage);
  return { rule: "invalid_json", offset: position ? Number(position[1]) : 0, pointer: undefined, found: "text that is not JSON" };
}

/** Index of the unescaped quote closing the string that opens at `start`, or -1 when the text ends first. */
function closingQuote(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const at = text.indexOf('"', from);
    if (at === -1) return -1;
    // Escaped when an odd number of backslashes precede it; each run is read once.
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
    from = at + 1;
  }
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45;
}

function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}
