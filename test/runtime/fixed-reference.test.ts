// The planned reference step (resolve/fixed-reference.ts) is the general one (references.ts) for
// one field at a fixed place: same step, same arguments, same key order, for random documents,
// texts and resolver answers; and it leaves every case it does not plan to the general way.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Candidate } from "../../templates/runtime/contract/api.ts";
import { planFixedReference, resolveFixed } from "../../templates/runtime/resolve/fixed-reference.ts";
import { applyResolutions } from "../../templates/runtime/resolve/apply-resolutions.ts";
import { compileReferences } from "../../templates/runtime/resolve/reference-fields.ts";
import { resolveReferences, type ReferenceStep } from "../../templates/runtime/resolve/references.ts";
import type { ResolveContext } from "../../templates/runtime/resolve/resolver-lookup.ts";

const candidate = fc.record({ id: fc.constantFrom("cus_1", "cus_2", "cus_3"), label: fc.string({ maxLength: 8 }) });
const json = fc.jsonValue({ maxDepth: 2 });

function context(answer: readonly Candidate[], offers: ReadonlyMap<string, readonly Candidate[]> = new Map()): ResolveContext {
  return { tool: "t", resolvers: { customer: () => answer }, offers, timeoutMs: 1000 };
}

describe("the planned reference step", () => {
  it("gives the general step's result for one field at a fixed place", () => {
    const pointer = fc.constantFrom("/customer_ref", "/billing/customer_ref", "/a~1b/c~0d");
    fc.assert(
      fc.property(
        pointer,
        json,
        fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 4 }),
        fc.array(candidate, { maxLength: 3 }),
        fc.boolean(),
        (path, text, siblings, answer, asText) => {
          const patterns = compileReferences({ [path]: { kind: "customer", target: "customer_id" } });
          const plan = planFixedReference(patterns);
          expect(plan).toBeDefined();
          const tokens = patterns[0]?.tokens ?? [];
          const build = (): unknown => {
            let node: Record<string, unknown> = { ...siblings, [tokens.at(-1) as string]: asText ? JSON.stringify(text) : text };
            for (const token of tokens.slice(0, -1).reverse()) node = { ...siblings, [token]: node };
            return node;
          };
          const planned = resolveFixed(build(), plan!, context(answer));
          const generalValue = build();
          const general = resolveReferences(generalValue, patterns, context(answer)) as ReferenceStep;
          if (planned === undefined) {
            expect(asText).toBe(false);
            return;
          }
          if (planned instanceof Promise) throw new Error("synchronous resolver, promise answer");
          expect(planned.step).toEqual(general);
          const applied = general.kind === "resolved" ? applyResolutions(generalValue, general.resolutions) : generalValue;
          expect(planned.value).toEqual(applied);
          expect(JSON.stringify(planned.value)).toBe(JSON.stringify(applied));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("plans nothing for array patterns or several fields, and defers to the general way once candidates were offered", () => {
    expect(planFixedReference(compileReferences({ "/items/*/customer_ref": { kind: "customer", target: "customer_id" } }))).toBeUndefined();
    expect(planFixedReference(compileReferences({ "/a": { kind: "x", target: "a_id" }, "/b": { kind: "x", target: "b_id" } }))).toBeUndefined();
    const plan = planFixedReference(compileReferences({ "/customer_ref": { kind: "customer", target: "customer_id" } }));
    const offers = new Map([["/customer_ref", [{ id: "cus_1", label: "Acme" }]]]);
    expect(resolveFixed({ customer_ref: "cus_9" }, plan!, context([{ id: "cus_9", label: "Initech" }], offers))).toBeUndefined();
    // The model sent the target itself, with or without the reference field: the general way judges it.
    expect(resolveFixed({ customer_ref: "Acme", customer_id: "cus_9" }, plan!, context([{ id: "cus_1", label: "Acme" }]))).toBeUndefined();
    expect(resolveFixed({ customer_id: "cus_9" }, plan!, context([{ id: "cus_1", label: "Acme" }]))).toBeUndefined();
  });
});
