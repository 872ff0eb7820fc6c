// toolguard reads some of ajv's private state and rewrites the code ajv prints. Each of those is
// an assumption an ajv upgrade may break, and a broken one must never pass silently (the model
// would be told the wrong allowed values, or a check would be lost): every reach-in and every
// rewrite in this folder checks that it found what it expects, and stops generation with this
// error when it did not. test/generator/ajv-assumptions.test.ts states each assumption.
import { createRequire } from "node:module";

/** The ajv version these assumptions were checked against at run time, named in every error. */
export const AJV_VERSION: string = (createRequire(import.meta.url)("ajv/package.json") as { version: string }).version;

/** An assumption about ajv's internals or output that no longer holds: a toolguard defect, never the schema's. */
export class AjvAssumptionError extends Error {
  constructor(assumption: string, detail: string) {
    super(
      `toolguard's assumption about ajv ${AJV_VERSION} no longer holds: ${assumption} (${detail}); generation stopped rather than write a validator that may be wrong. Report this to toolguard with the ajv version.`,
    );
    this.name = "AjvAssumptionError";
  }
}

/**
 * What `String.prototype.replace` passes a replacer: the match, then each capture, the offset,
 * the whole text and the named groups. Each caller types the arguments its pattern produces.
 */
// biome-ignore lint/suspicious/noExplicitAny: the arguments after the match differ in type by position (string captures, a number offset), as in lib.es5's own replacer type; unknown would make every caller's typed parameters unassignable
type Replacer = (match: string, ...rest: any[]) => string;

/**
 * `text.replace(pattern, replacement)`, throwing when the pattern matched fewer than `atLeast`
 * times: a rewrite of ajv's output that finds nothing to rewrite means ajv changed its output.
 */
export function rewrite(text: string, pattern: RegExp, replacement: Replacer, assumption: string, atLeast = 1): string {
  let count = 0;
  const out = text.replace(pattern, (match: string, ...rest: unknown[]) => {
    count++;
    return replacement(match, ...rest);
  });
  if (count < atLeast) throw new AjvAssumptionError(assumption, `expected ${atLeast === 1 ? "a match" : `${atLeast} matches`} of ${pattern}, found ${count}`);
  return out;
}
