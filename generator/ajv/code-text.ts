// ajv's printed code carries schema text in two places: string literals (property names, enum
// and const values, patterns, error messages) and property accesses (`data.indices` for a
// property named `indices`). A search of the printed code for one of ajv's own names (an index
// map, a helper, a schema constant) must see neither, or a schema that mentions the name
// decides what the search finds (issue 32: a property named `indices` stopped generation).

// Strings as ajv prints them (JSON.stringify, so one line each), comments, `.name` accesses,
// and regular-expression literals where one can start (after `(`, `,`, `=` or `:`): ajv escapes
// a key for an error's instancePath with `.replace(/\//g, "~1")`, whose `//` is no comment.
// A `/` after a name, a number or `)` divides (multipleOf's `data0/0.01`) and is code.
const SCHEMA_TEXT =
  /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/(?<=[(,=:]\s*\/)(?![*/])(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[dgimsuy]*|\/\*[\s\S]*?\*\/|\/\/[^\n]*|\.[A-Za-z_$][\w$]*/g;

/**
 * `code` with every character schema text can reach blanked: the inside of each string literal
 * and comment becomes spaces, each accessed property name underscores. The result has the same
 * length and the same lines, so an offset found in it is the offset in `code`.
 */
export function codeOnly(code: string): string {
  return code.replace(SCHEMA_TEXT, (text) => {
    const first = text[0] as string;
    if (first === ".") return `.${underscores(text.length - 1)}`;
    if (first === '"' || first === "'") return `${first}${spaces(text.length - 2)}${first}`;
    if (first === "/" && text[1] !== "/" && text[1] !== "*") return `/${spaces(text.lastIndexOf("/") - 1)}${text.slice(text.lastIndexOf("/"))}`;
    return text.replace(/[^\n]/g, " ");
  });
}

// Blanking makes a run of spaces or underscores for each of the thousands of strings and
// property accesses of a large validator; most runs are short and repeat, so each length is
// made once (GitHub's 1,221 validators blank ~60 MB of code in all).
const SPACES: string[] = [];
const UNDERSCORES: string[] = [];
const RUN_CACHE_LIMIT = 256;

function spaces(length: number): string {
  if (length >= RUN_CACHE_LIMIT) return " ".repeat(length);
  let run = SPACES[length];
  if (run === undefined) SPACES[length] = run = " ".repeat(length);
  return run;
}

function underscores(length: number): string {
  if (length >= RUN_CACHE_LIMIT) return "_".repeat(length);
  let run = UNDERSCORES[length];
  if (run === undefined) UNDERSCORES[length] = run = "_".repeat(length);
  return run;
}

/** Whether ajv's own code (not schema text in it) uses the identifier `name` (a plain name or a RegExp source). */
export function usesName(code: string, name: string): boolean {
  return usesNameIn(codeOnly(code), name);
}

/** `usesName` on code already blanked by `codeOnly`: several names asked of one text blank it once. */
export function usesNameIn(blanked: string, name: string): boolean {
  // A plain name the text lacks is not used: a substring search says so without the pattern,
  // whose lookbehind is tried at every offset of the text (most validators lack most helpers).
  if (PLAIN_NAME.test(name) && !blanked.includes(name)) return false;
  return new RegExp(String.raw`(?<![\w$.])(?:${name})(?![\w$])`).test(blanked);
}

const PLAIN_NAME = /^[\w$]+$/;
