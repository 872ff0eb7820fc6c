// A tool's reference fields bound to the application's resolvers, once per bound tool, and step 4
// of a call through them: the planned way for one field at a fixed place (fixed-reference.ts),
// else the general way (references.ts).
import type { ResolverMap } from "../contract/api.ts";
import type { ReferenceRewrite, ReferenceRewrites, ReferenceTable } from "../contract/tool-spec.ts";
import { planFixedReference, resolveFixed, type FixedReference } from "./fixed-reference.ts";
import { applyResolutions } from "./apply-resolutions.ts";
import { compileReferences, type ReferencePattern } from "./reference-fields.ts";
import { resolveReferences, type ReferenceStep } from "./references.ts";
import { DEFAULT_RESOLVER_TIMEOUT_MS, type ResolveContext } from "./resolver-lookup.ts";

const NO_OFFERS: ResolveContext["offers"] = new Map();

export interface BoundReferences {
  readonly patterns: readonly ReferencePattern[];
  readonly fixed: FixedReference | undefined;
  readonly resolvers: ResolverMap<string>;
  readonly timeoutMs: number;
  /** The generated rewrite of a concrete field (its pointer's tokens), for the general way; absent without rewrites. */
  readonly rewriteAt: ((tokens: readonly string[]) => ReferenceRewrite | undefined) | undefined;
  /** The lookup context of the common call (no candidates offered, no signal), made once. */
  readonly plainContext: ResolveContext;
}

/** What a tool module says of its references (`ToolSpec`'s fields). */
type ReferencesOfTool = { readonly name: string; readonly references: ReferenceTable; readonly rewrites?: ReferenceRewrites | undefined };

/** What a binding says of its resolvers (`GuardOptions`'s fields). */
type ResolverOptions = { readonly resolvers?: ResolverMap<string> | undefined; readonly resolverTimeoutMs?: number | undefined };

/** The tool's references bound to `resolvers`, or `undefined` for a tool without any. Throws when a kind has no resolver. */
export function bindReferences(spec: ReferencesOfTool, options: ResolverOptions): BoundReferences | undefined {
  const { name: tool, references: table, rewrites } = spec;
  const { resolvers = {}, resolverTimeoutMs: timeoutMs = DEFAULT_RESOLVER_TIMEOUT_MS } = options;
  const patterns = compileReferences(table);
  if (patterns.length === 0) return undefined;
  requireResolvers(tool, new Set(patterns.map((field) => field.kind)), resolvers);
  return {
    patterns,
    fixed: planFixedReference(patterns, rewrites),
    resolvers,
    timeoutMs,
    rewriteAt: rewrites && rewriteFinder(patterns, rewrites),
    plainContext: { tool, resolvers, offers: NO_OFFERS, timeoutMs, signal: undefined },
  };
}

/** The types already demand resolvers; JavaScript callers learn it at bind time, not mid-call. */
export function requireResolvers(tool: string, kinds: Iterable<string>, resolvers: Partial<ResolverMap<string>> | undefined): void {
  for (const kind of kinds) {
    if (typeof resolvers?.[kind] !== "function") {
      throw new TypeError(`toolguard: ${tool} needs a resolver for reference kind "${kind}": implement(impl, { resolvers: { ${kind}: (text) => [...] } })`);
    }
  }
}

type Resolved = { readonly step: ReferenceStep; readonly value: unknown };

/**
 * Step 4 for a bound tool: the reference step and the arguments with its resolutions applied,
 * the planned way when `fixed` covers the call, else the general way. Synchronous when every
 * resolver answers synchronously; throws (or rejects with) what a resolver's failure becomes.
 */
export function resolveStage(
  value: unknown,
  bound: BoundReferences,
  offers: ResolveContext["offers"],
  signal: AbortSignal | undefined,
): Resolved | Promise<Resolved> {
  // One literal of one shape per call (a spread of the caller's object cost as much as the lookup),
  // or none for the common call.
  const full: ResolveContext =
    offers.size === 0 && signal === undefined
      ? bound.plainContext
      : { tool: bound.plainContext.tool, resolvers: bound.resolvers, offers, timeoutMs: bound.timeoutMs, signal };
  const planned = bound.fixed && resolveFixed(value, bound.fixed, full);
  if (planned) return planned;
  const step = resolveReferences(value, bound.patterns, full);
  const apply = (done: ReferenceStep): Resolved => ({
    step: done,
    value: done.kind === "resolved" ? applyResolutions(value, done.resolutions, bound.rewriteAt) : value,
  });
  return step instanceof Promise ? step.then(apply) : apply(step);
}

/** Finds the rewrite of the pattern a concrete field matches (`*` matching an array index). */
function rewriteFinder(patterns: readonly ReferencePattern[], rewrites: ReferenceRewrites): (tokens: readonly string[]) => ReferenceRewrite | undefined {
  const known = patterns.flatMap((pattern) =>
    Object.hasOwn(rewrites, pattern.pointer) ? [{ tokens: pattern.tokens, rewrite: rewrites[pattern.pointer] as ReferenceRewrite }] : [],
  );
  return (tokens) => known.find((pattern) => matchesPattern(pattern.tokens, tokens))?.rewrite;
}

function matchesPattern(pattern: readonly string[], tokens: readonly string[]): boolean {
  if (pattern.length !== tokens.length) return false;
  for (let index = 0; index < pattern.length; index++) if (pattern[index] !== "*" && pattern[index] !== tokens[index]) return false;
  return true;
}
