// ajv compiles `pattern` and `patternProperties` as Unicode regular expressions; OpenAPI
// documents are written against plain JavaScript (or other) regex syntax. A pattern that means
// the same in Unicode mode once needless escapes go is rewritten; any other is refused here,
// naming the node, rather than failing later inside ajv.
import { Untranslatable } from "./untranslatable.ts";

type Schema = Record<string, unknown>;

// ajv compiles patterns as Unicode regular expressions, which reject some loose syntax that
// plain JavaScript patterns accept (a lone `{`); such a pattern would not compile at all.
export function checkPatterns(out: Schema, pointer: string): void {
  const patterns = [
    ...(typeof out.pattern === "string" ? [[out.pattern, `${pointer}/pattern`]] : []),
    ...Object.keys((out.patternProperties as Schema | undefined) ?? {}).map((key) => [key, `${pointer}/patternProperties`]),
  ];
  for (const [pattern, at] of patterns as [string, string][]) {
    try {
      new RegExp(pattern, "u");
    } catch (error) {
      // `\:` or `\-` outside a class: plain JavaScript reads an escaped character that has no
      // meaning as itself, Unicode mode refuses it. Written without the backslash, the same
      // pattern, which Unicode mode accepts (DigitalOcean's tag names: ^[a-zA-Z0-9_\-\:]+$).
      const plain = withoutIdentityEscapes(pattern);
      if (at.endsWith("/pattern") && plain !== pattern && compilesInUnicodeMode(plain) && compilesInUnicodeMode(pattern, false)) {
        out.pattern = plain;
        continue;
      }
      throw new Untranslatable(
        at,
        `pattern ${JSON.stringify(pattern)} is not a valid Unicode regular expression (${(error as Error).message}); escape literal braces and brackets`,
      );
    }
  }
}

function compilesInUnicodeMode(pattern: string, unicode = true): boolean {
  try {
    new RegExp(pattern, unicode ? "u" : "");
    return true;
  } catch {
    return false;
  }
}

/** Characters whose escape Unicode mode allows everywhere (the syntax characters and `/`). */
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

/**
 * The pattern with identity escapes of punctuation removed where Unicode mode refuses them:
 * `\:` anywhere, `\-` outside a class (inside one, Unicode mode keeps `\-`). Letters, digits
 * and syntax characters keep their escapes.
 */
function withoutIdentityEscapes(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "\\" && index + 1 < pattern.length) {
      const next = pattern[index + 1] as string;
      const needless = !/[A-Za-z0-9]/.test(next) && !SYNTAX.has(next) && !(next === "-" && inClass) && next.charCodeAt(0) < 128;
      out += needless ? next : char + next;
      index++;
      continue;
    }
    if (char === "[" && !inClass) inClass = true;
    else if (char === "]" && inClass) inClass = false;
    out += char;
  }
  return out;
}
