// The brief's negative tests: plant each defect once and show the suite's assertions fail.
// The guard's parts are replaceable only through `createGuard` (not exported by the package).
import { describe, expect, it } from "vitest";
import { coerceString } from "../../templates/runtime/coerce/coerce.ts";
import { createGuard, STRICT_PARTS, type GuardParts } from "../../templates/runtime/call/guard.ts";
import { invoiceSpec, type validInvoice } from "./invoice-spec.ts";
import { assertBudgetBounded, assertRepairedCallOnly, assertTruncationBudget, type MakeTool } from "./scenarios.ts";

const build =
  (parts: GuardParts): MakeTool =>
  (implementation, ledger) =>
    createGuard<typeof validInvoice, string>(invoiceSpec(), implementation, { ledger }, parts);

const mutants: Record<string, GuardParts> = {
  "the validator is bypassed": { ...STRICT_PARTS, validate: () => true },
  "the repair budget is unbounded": { ...STRICT_PARTS, maxAttempts: () => Number.POSITIVE_INFINITY },
  'the coercion table accepts "1,299.00"': {
    ...STRICT_PARTS,
    readString: (text, target) => {
      if (target === "boolean") return coerceString(text, target);
      const n = Number(text.replace(/[,$€£\s]/g, ""));
      return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
    },
  },
};

describe.each(["framework", "callback"] as const)("planted defects, %s shape", (shape) => {
  it("the unmutated guard passes every assertion", async () => {
    await assertRepairedCallOnly(build(STRICT_PARTS), shape);
    await assertBudgetBounded(build(STRICT_PARTS), shape);
    await assertTruncationBudget(build(STRICT_PARTS), shape);
  });

  it("catches a bypassed validator", async () => {
    await expect(assertRepairedCallOnly(build(mutants["the validator is bypassed"] as GuardParts), shape)).rejects.toThrow();
  });

  it("catches an unbounded repair budget", async () => {
    const parts = mutants["the repair budget is unbounded"] as GuardParts;
    await expect(assertBudgetBounded(build(parts), shape)).rejects.toThrow();
    await expect(assertTruncationBudget(build(parts), shape)).rejects.toThrow();
  });

  it('catches a coercion table that silently fixes "1,299.00"', async () => {
    await expect(assertRepairedCallOnly(build(mutants['the coercion table accepts "1,299.00"'] as GuardParts), shape)).rejects.toThrow();
  });
});
