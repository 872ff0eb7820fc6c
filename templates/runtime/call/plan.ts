// A call's plan, decided once when a tool is bound: every choice that depends only on the tool
// module and the binding's options is made here, so a call only follows it. Each field is one
// stage's choice behind its own small type; a stage that has nothing to do for this tool is
// `undefined` (no references, no composition, no path arguments), which is the fast path, and
// the property tests hold each fast path to its general twin (docs/architecture.md lists them).
import type { GuardOptions, ResolverMap } from "../contract/api.ts";
import type { ArgumentError } from "../contract/outcome.ts";
import type { ToolSpec } from "../contract/tool-spec.ts";
import { planCoercions } from "../coerce/coerce.ts";
import { holdsCoercible, placeTree } from "../coerce/coercible-places.ts";
import type { CoercionPlan } from "../coerce/coerce.ts";
import { redactorFor } from "../ledger/redact.ts";
import { GuardLedger } from "../ledger/settle.ts";
import { DEFAULT_LIMITS } from "../parse/parse.ts";
import { bindReferences, type BoundReferences } from "../resolve/bind-references.ts";
import { ToolTelemetry } from "../telemetry/telemetry.ts";
import { hazardWalkFor, type AttemptSetup, type GuardParts } from "./attempt.ts";
import { PROCESS_CHAINS, type ChainStore } from "./chain-store.ts";
import { Composition } from "./composition.ts";
import { pathArgumentErrors, pathArgumentNames } from "./path-arguments.ts";

const DEFAULT_MAX_ERRORS = 20;

/** The options a binding plans its calls from (`implement`'s, with the resolvers its references need). */
export type PlanOptions<Args> = GuardOptions<never, Args> & { readonly resolvers?: ResolverMap<string> };

/** The path-argument check of a tool with an HTTP binding: the validated arguments' problems, or undefined. */
export type PathCheck = (args: unknown) => readonly ArgumentError[] | undefined;

export interface CallPlan<Args> {
  /**
   * Parse, coerce, validate, explain (attempt.ts): the parse limits, the hazard check (the
   * generated walk after the validator, or the full walk at parse: `hazardWalk`), the coercion
   * plan, the path check, the envelope's redaction, the error cap, timing.
   */
  readonly attempt: AttemptSetup;
  /** The reference step: the planned way for one fixed field, else the general way; none without references. */
  readonly references: BoundReferences | undefined;
  /** The layers around the implementation (write queue, idempotency gate); none unless asked for. */
  readonly composition: Composition<Args> | undefined;
  /** Where the turns' repair budgets are kept. */
  readonly chains: ChainStore;
  /** The record's way to the ledger: sink, redaction, caps, durable and fail-closed modes. */
  readonly ledger: GuardLedger;
  /** This tool's telemetry: its attributes (one frozen object, not one per call) and the instruments lent to its call count. */
  readonly telemetry: ToolTelemetry;
}

/** Decides `spec`'s calls under `options`. Throws what a binding gets wrong (a missing resolver). */
export function planCall<Args>(spec: ToolSpec, options: PlanOptions<Args>, parts: GuardParts): CallPlan<Args> {
  const plan = planCoercions(spec.coercions);
  const limits = { maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxBytes, maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth };
  return {
    attempt: {
      spec,
      parts,
      limits,
      maxErrors: options.maxErrors ?? DEFAULT_MAX_ERRORS,
      plan,
      coercible: coercibleFor(spec, plan),
      timing: options.timing === true,
      pathCheck: pathCheckFor(spec),
      hazardWalk: hazardWalkFor(spec, limits),
      // The envelope's own redaction: on even with `redact: false`, which is about the ledger.
      secrets: redactorFor(spec, options.redact || {}),
    },
    references: bindReferences(spec, options),
    composition: Composition.of<Args>(spec.name, options),
    chains: PROCESS_CHAINS,
    ledger: new GuardLedger(spec, options),
    telemetry: new ToolTelemetry(spec.name),
  };
}

/**
 * The check of the arguments that go into the request's URL path; none without path parameters.
 * The tool's printed look (`hazardWalk.plainPath`) answers the common case; anything else, and a
 * hand-written spec, goes to the full check over the binding's names.
 */
function pathCheckFor(spec: ToolSpec): PathCheck | undefined {
  const names = pathArgumentNames(spec.http);
  if (names.length === 0) return undefined;
  const plain = spec.hazardWalk?.plainPath;
  if (plain === undefined) return (args) => pathArgumentErrors(spec.http, args, names);
  return (args) => (plain(args) ? undefined : pathArgumentErrors(spec.http, args, names));
}

/** The coercion step's first look at the plan's places: the tool's printed one, else a look over their tree; none without a plan. */
function coercibleFor(spec: ToolSpec, plan: CoercionPlan): ((value: unknown) => boolean) | undefined {
  const tree = placeTree(plan);
  if (tree === undefined) return undefined;
  return spec.hazardWalk?.coercible ?? ((value) => holdsCoercible(value, tree));
}
