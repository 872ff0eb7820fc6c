// Step 4's common case, planned once per bound tool: a tool with one reference field at a fixed
// place (no array index in its pattern, like the invoice's `/customer_ref`). The field is read and
// rewritten with direct property reads along keys split when the tool is bound, instead of
// expanding the pattern, building the field's pointer and splitting it again on every call; its
// object is rebuilt by the rewrite generated for the field (`ReferenceRewrite`). Any other case
// (an array pattern, several fields, candidates already offered, a value that is not text) goes
// the general way (references.ts), before any resolver is asked.
import type { Candidate, Resolution } from "../contract/resolution.ts";
import type { ReferenceRewrite, ReferenceRewrites } from "../contract/tool-spec.ts";
import { withoutField } from "./apply-resolutions.ts";
import type { Field, ReferencePattern } from "./reference-fields.ts";
import { decide, type ReferenceStep } from "./references.ts";
import { lookUp, type ResolveContext } from "./resolver-lookup.ts";

export interface FixedReference {
  readonly parents: readonly string[];
  readonly key: string;
  readonly field: Omit<Field, "text">;
  /** The field's object rebuilt without it, with the identifier: the generated rewrite, else `withoutField`. */
  readonly rewrite: ReferenceRewrite;
}

/** The plan for `patterns`, when they are one field at a fixed place; `rewrites`: the tool's generated ones. */
export function planFixedReference(patterns: readonly ReferencePattern[], rewrites?: ReferenceRewrites): FixedReference | undefined {
  const only = patterns.length === 1 ? patterns[0] : undefined;
  if (only === undefined || only.tokens.length === 0 || only.tokens.includes("*")) return undefined;
  const path = only.tokens.map((token) => `/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
  const key = only.tokens.at(-1) as string;
  const target = only.target;
  const generated = rewrites !== undefined && Object.hasOwn(rewrites, only.pointer) ? rewrites[only.pointer] : undefined;
  const rewrite = generated ?? ((holder: Readonly<Record<string, unknown>>, id: string) => withoutField(holder, key, target, id));
  return { parents: only.tokens.slice(0, -1), key, field: { path, kind: only.kind, target }, rewrite };
}

const NO_RESOLUTIONS: readonly Resolution[] = Object.freeze([]);

/**
 * The reference step for a planned field, or `undefined` to take the general way. The resolved
 * arguments come back with it, rebuilt without the model's text.
 */
export function resolveFixed(
  value: unknown,
  plan: FixedReference,
  context: ResolveContext,
): { readonly step: ReferenceStep; readonly value: unknown } | Promise<{ readonly step: ReferenceStep; readonly value: unknown }> | undefined {
  if (context.offers.size > 0) return undefined;
  let holder: Record<string, unknown> | undefined;
  let node = value as Record<string, unknown>;
  for (let depth = 0; ; depth++) {
    const key = depth < plan.parents.length ? (plan.parents[depth] as string) : plan.key;
    // Arrays (a numeric token) are left to the general way, and so is an object that holds the
    // target property itself (the model sent the identifier: the general way says what to do).
    if (Array.isArray(node) || (depth === plan.parents.length && node !== null && typeof node === "object" && Object.hasOwn(node, plan.field.target)))
      return undefined;
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return { step: { kind: "resolved", resolutions: NO_RESOLUTIONS }, value };
    if (depth === plan.parents.length) break;
    holder = node;
    node = node[key] as Record<string, unknown>;
  }
  const text = node[plan.key];
  if (typeof text !== "string") return undefined;
  const found = lookUp(text, plan.field.path, plan.field.kind, context);
  // A synchronous resolver's answer is settled without a closure made for it.
  return Array.isArray(found)
    ? settle(found, value, holder, plan)
    : (found as Promise<readonly Candidate[]>).then((candidates) => settle(candidates, value, holder, plan));
}

/**
 * The step for the resolver's answer, and the arguments with the field replaced when it was one
 * match. `holder`: the object that holds the field's object, `undefined` when that is `value`.
 */
function settle(
  candidates: readonly Candidate[],
  value: unknown,
  holder: Record<string, unknown> | undefined,
  plan: FixedReference,
): { readonly step: ReferenceStep; readonly value: unknown } {
  // The field's object and its text, as `resolveFixed` found them (the guard's own copy: nothing changed them).
  const parent = (holder === undefined ? value : holder[plan.parents.at(-1) as string]) as Record<string, unknown>;
  const text = parent[plan.key] as string;
  if (candidates.length !== 1) return { step: decide([{ field: { ...plan.field, text }, error: undefined, candidates }]), value };
  const id = (candidates[0] as Candidate).id;
  const rebuilt = plan.rewrite(parent, id);
  if (holder === undefined) value = rebuilt;
  else Object.defineProperty(holder, plan.parents.at(-1) as string, { value: rebuilt, writable: true, enumerable: true, configurable: true });
  const resolution: Resolution = { path: plan.field.path, text, id, target: plan.field.target };
  return { step: { kind: "resolved", resolutions: [resolution] } as ReferenceStep, value };
}
