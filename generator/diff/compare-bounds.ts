// Bounds and string rules: numbers, lengths, counts, patterns, formats. None of them is in the
// TypeScript type the implementation sees, so they only ever matter to the models: a tighter
// bound turns valid calls into failures; a looser one lets the model send more.
import type { Schema } from "../schema-walk.ts";
import { ANNOTATION_FORMATS } from "../ajv/instances.ts";
import { type At, type CompareContext, report, where } from "./compare-context.ts";
import { shown } from "./schema-view.ts";

/** Lower bounds: a larger value is tighter. Upper bounds: a smaller one is. */
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];

/** Every bound and string rule of one pair of schemas: tighter breaks models, looser is said as what the model may now send. */
export function compareBounds(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  for (const keyword of LOWER) compareBound(ctx, a, b, at, keyword, 1);
  for (const keyword of UPPER) compareBound(ctx, a, b, at, keyword, -1);
  compareMultipleOf(ctx, a, b, at);
  compareFlag(ctx, a, b, at, "uniqueItems", "items must now be unique");
  comparePattern(ctx, a, b, at);
  compareFormat(ctx, a, b, at);
}

/**
 * A bound's value; none for bounds at or past the safe-integer range, which the parser already
 * enforces (OpenAPI's int64 translates to them), so adding one changes nothing.
 */
function numeric(value: unknown, keyword = ""): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  if (/imum$/.test(keyword) && Math.abs(value) >= Number.MAX_SAFE_INTEGER) return undefined;
  return value;
}

/** `direction` 1: a larger value is tighter (a lower bound); -1: a smaller one is. */
function compareBound(ctx: CompareContext, a: Schema, b: Schema, at: At, keyword: string, direction: 1 | -1): void {
  const before = numeric(a[keyword], keyword);
  const after = numeric(b[keyword], keyword);
  if (before === after) return;
  if (after === undefined) {
    report(ctx, at, {
      keyword,
      inOld: true,
      toolTeams: "none",
      models: "none",
      message: `${where(at.path)}: ${keyword} ${before} removed; the model may now send values past it`,
    });
    return;
  }
  const tighter = before === undefined || (after - before) * direction > 0;
  report(ctx, at, {
    keyword,
    toolTeams: "none",
    models: tighter ? "breaking" : "none",
    message:
      before === undefined
        ? `${where(at.path)}: new bound ${keyword} ${after}; values past it now fail`
        : tighter
          ? `${where(at.path)}: ${keyword} tightened from ${before} to ${after}; values between now fail`
          : `${where(at.path)}: ${keyword} loosened from ${before} to ${after}; the model may now send values up to the new bound`,
  });
}

function compareMultipleOf(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const before = numeric(a.multipleOf);
  const after = numeric(b.multipleOf);
  if (before === after) return;
  if (after === undefined) {
    report(ctx, at, {
      keyword: "multipleOf",
      inOld: true,
      toolTeams: "none",
      models: "none",
      message: `${where(at.path)}: multipleOf ${before} removed; the model may now send any step`,
    });
    return;
  }
  // A new step that divides the old one accepts everything the old accepted.
  const looser = before !== undefined && Number.isInteger(before / after);
  report(ctx, at, {
    keyword: "multipleOf",
    toolTeams: "none",
    models: looser ? "none" : "breaking",
    message: looser
      ? `${where(at.path)}: multipleOf ${before} -> ${after}; the model may now send finer steps`
      : `${where(at.path)}: must now be a multiple of ${after}${before === undefined ? "" : ` (was ${before})`}; other values now fail`,
  });
}

function compareFlag(ctx: CompareContext, a: Schema, b: Schema, at: At, keyword: string, tightened: string): void {
  const before = a[keyword] === true;
  const after = b[keyword] === true;
  if (before === after) return;
  report(
    ctx,
    at,
    after
      ? { keyword, toolTeams: "none", models: "breaking", message: `${where(at.path)}: ${tightened}` }
      : { keyword, inOld: true, toolTeams: "none", models: "none", message: `${where(at.path)}: ${keyword} dropped; the model may now send what it forbade` },
  );
}

function comparePattern(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const before = typeof a.pattern === "string" ? a.pattern : undefined;
  const after = typeof b.pattern === "string" ? b.pattern : undefined;
  if (before === after) return;
  if (after === undefined) {
    report(ctx, at, {
      keyword: "pattern",
      inOld: true,
      toolTeams: "none",
      models: "none",
      message: `${where(at.path)}: pattern ${shown(before)} removed; the model may now send any text`,
    });
  } else if (before === undefined) {
    report(ctx, at, {
      keyword: "pattern",
      toolTeams: "none",
      models: "breaking",
      message: `${where(at.path)}: must now match ${shown(after)}; other text now fails`,
    });
  } else {
    // Whether one regular expression accepts a subset of another is not decided here.
    report(ctx, at, {
      keyword: "pattern",
      toolTeams: "none",
      models: "possibly",
      message: `${where(at.path)}: pattern changed from ${shown(before)} to ${shown(after)}; text the old one accepted may now fail`,
    });
  }
}

function compareFormat(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const asserted = (format: unknown): string | undefined => (typeof format === "string" && !ANNOTATION_FORMATS.includes(format) ? format : undefined);
  const before = asserted(a.format);
  const after = asserted(b.format);
  if (before === after) return;
  if (after === undefined) {
    report(ctx, at, {
      keyword: "format",
      inOld: true,
      toolTeams: "none",
      models: "none",
      message: `${where(at.path)}: format ${before} no longer checked; the model may now send any text`,
    });
  } else {
    report(ctx, at, {
      keyword: "format",
      toolTeams: "none",
      models: "breaking",
      message: `${where(at.path)}: must now be a ${after}${before ? ` (was ${before})` : ""}; other text now fails`,
    });
  }
}
