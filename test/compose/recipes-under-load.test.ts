// The composition recipes of docs/composition.md, driven as production drives them: half the
// model's calls invalid, the backend failing for real. Each recipe is checked for what an
// operator expects of it (the breaker opens after as many backend failures as with no invalid
// traffic at all, the fallback serves every valid call while the breaker is open, the ladder
// steps down only for the dependency), and beside it the placement the docs warn against, run on
// the same traffic, fails in the way the docs say.
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, fallback, handleAll, handleWhen, wrap } from "cockatiel";
import CircuitBreaker from "opossum";
import { describe, expect, it } from "vitest";
import { defineTool, isArgumentFailure, isDependencyFailure, MemorySink, unwrap } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

type Invoice = typeof validInvoice;
const invalid = JSON.stringify({ ...validInvoice, amount: "1,299.00" });
const valid = JSON.stringify(validInvoice);

let turnSeq = 0;
const turn = () => ({ turn: `load-${++turnSeq}` });

/** `count` calls, every other one invalid (each in its own turn, as separate conversations send them). */
const halfInvalid = (count: number): string[] => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? invalid : valid));

/** A backend that fails while `down` is set; counts what reached it. */
function backend(name: string) {
  const state = {
    calls: 0,
    down: false,
    async run(args: Invoice): Promise<{ id: string; from: string; amount: number }> {
      state.calls++;
      if (state.down) throw new Error(`${name} unavailable`);
      return { id: "inv_1", from: name, amount: args.amount };
    },
  };
  return state;
}

describe("cockatiel: a fallback over a breaker", () => {
  const lastKnownGood = { id: "inv_cached", from: "cache", amount: 0 };

  it("inside implement: every valid call is served while the breaker is open, every invalid one gets its envelope", async () => {
    const billing = backend("billing");
    billing.down = true;
    const breaker = circuitBreaker(handleAll, { halfOpenAfter: 60_000, breaker: new ConsecutiveBreaker(3) });
    // Inside implement only validated calls arrive: whatever is thrown here is the dependency's,
    // the breaker's BrokenCircuitError included, so the fallback may handle all of it.
    const policy = wrap(
      fallback(handleAll, () => lastKnownGood),
      breaker,
    );
    const tool = defineTool<Invoice>(invoiceSpec()).implement((args) => policy.execute(() => billing.run(args)), { ledger: new MemorySink() });
    const outcomes = [];
    for (const raw of halfInvalid(14)) outcomes.push(await tool.call(raw, turn()));
    const served = outcomes.filter((outcome) => outcome.status === "ok" && (outcome.result as { from: string }).from === "cache");
    const envelopes = outcomes.filter((outcome) => outcome.status === "validation_failed");
    expect(served).toHaveLength(7);
    expect(envelopes).toHaveLength(7);
    expect(billing.calls).toBe(3); // the breaker opened after three failures; the other four never reached billing
  });

  it("around call (the placement the docs warn against): once open, the breaker refuses before the guard runs", async () => {
    const billing = backend("billing");
    billing.down = true;
    const tool = defineTool<Invoice>(invoiceSpec()).implement((args) => billing.run(args), { ledger: new MemorySink() });
    const breaker = circuitBreaker(handleWhen(isDependencyFailure), { halfOpenAfter: 60_000, breaker: new ConsecutiveBreaker(3) });
    const cached = fallback(handleWhen(isDependencyFailure), () => lastKnownGood);
    const answers: unknown[] = [];
    for (const raw of halfInvalid(14)) {
      answers.push(await cached.execute(() => breaker.execute(() => tool.call(raw, turn()).then(unwrap))).catch((error: unknown) => error));
    }
    const valids = answers.filter((_, index) => index % 2 === 1);
    const invalids = answers.filter((_, index) => index % 2 === 0);
    // The fallback stops serving when the breaker opens: BrokenCircuitError is not the dependency's error.
    expect(valids.filter((answer) => answer === lastKnownGood).length).toBeLessThan(7);
    expect(valids.some((answer) => answer instanceof BrokenCircuitError)).toBe(true);
    // And a malformed call gets the breaker's error instead of the envelope the model needs.
    expect(invalids.some((answer) => answer instanceof BrokenCircuitError)).toBe(true);
    expect(invalids.every((answer) => isArgumentFailure(answer) || answer instanceof BrokenCircuitError)).toBe(true);
  });
});

describe("opossum: a breaker that ignores argument failures", () => {
  const options = { timeout: false as const, errorThresholdPercentage: 50, volumeThreshold: 10, resetTimeout: 60_000 };

  /** Backend failures it took the breaker to open, driving `call` with `traffic` (the backend down throughout). */
  async function failuresToOpen(
    makeCall: (billing: ReturnType<typeof backend>) => { call: (raw: string) => Promise<unknown>; breaker: CircuitBreaker },
    traffic: string[],
  ) {
    const billing = backend("billing");
    billing.down = true;
    const { call, breaker } = makeCall(billing);
    for (const raw of traffic) {
      if (breaker.opened) break;
      await call(raw).catch(() => undefined);
    }
    const result = { opened: breaker.opened, failures: billing.calls };
    breaker.shutdown();
    return result;
  }

  const inside = (billing: ReturnType<typeof backend>) => {
    const breaker = new CircuitBreaker((args: Invoice) => billing.run(args), options);
    const tool = defineTool<Invoice>(invoiceSpec()).implement((args) => breaker.fire(args), { ledger: new MemorySink() });
    return { breaker, call: (raw: string) => tool.call(raw, turn()) };
  };

  it("inside implement: opens after as many backend failures with half the calls invalid as with none", async () => {
    const baseline = await failuresToOpen(
      inside,
      Array.from({ length: 200 }, () => valid),
    );
    const mixed = await failuresToOpen(inside, halfInvalid(400));
    expect(baseline.opened && mixed.opened).toBe(true);
    expect(mixed.failures).toBe(baseline.failures);
  });

  it("around call with errorFilter (the placement the docs warn against): filtered failures count as successes", async () => {
    const around = (billing: ReturnType<typeof backend>) => {
      const tool = defineTool<Invoice>(invoiceSpec()).implement((args) => billing.run(args), { ledger: new MemorySink() });
      const breaker = new CircuitBreaker((raw: string) => tool.call(raw, turn()).then(unwrap), {
        ...options,
        errorFilter: (error: unknown) => !isDependencyFailure(error),
      });
      return { breaker, call: (raw: string) => breaker.fire(raw) };
    };
    const baseline = await failuresToOpen(
      inside,
      Array.from({ length: 200 }, () => valid),
    );
    const mixed = await failuresToOpen(around, halfInvalid(400));
    // opossum emits "success" for a filtered error: half the traffic dilutes the failure rate,
    // and at a 50% threshold the breaker needs more backend failures to open, or never opens.
    expect(!mixed.opened || mixed.failures > baseline.failures).toBe(true);
  });
});

describe("a fallback ladder: primary, replica, cache", () => {
  function ladderTool() {
    const primary = backend("primary");
    const replica = backend("replica");
    const cache = { reads: 0 };
    const tool = defineTool<Invoice>(invoiceSpec()).implement(
      (args) =>
        // Inside implement a step fails only for the dependency's reasons: each rung catches all.
        fallback(handleAll, () => {
          cache.reads++;
          return { id: "inv_cached", from: "cache", amount: args.amount };
        }).execute(() => fallback(handleAll, () => replica.run(args)).execute(() => primary.run(args))),
      { ledger: new MemorySink() },
    );
    return { tool, primary, replica, cache };
  }

  it("steps down one rung per dependency failure, never for an invalid call", async () => {
    const { tool, primary, replica, cache } = ladderTool();
    const served: string[] = [];
    const record = async (traffic: string[]) => {
      for (const raw of traffic) {
        const outcome = await tool.call(raw, turn());
        served.push(outcome.status === "ok" ? (outcome.result as { from: string }).from : outcome.status);
      }
    };
    await record(halfInvalid(4));
    primary.down = true;
    await record(halfInvalid(4));
    replica.down = true;
    await record(halfInvalid(4));
    expect(served).toEqual([
      ...["validation_failed", "primary", "validation_failed", "primary"],
      ...["validation_failed", "replica", "validation_failed", "replica"],
      ...["validation_failed", "cache", "validation_failed", "cache"],
    ]);
    // Six valid calls reached the primary; only the four it failed went on to the replica, and
    // only the two the replica failed were answered from the cache. The six invalid calls touched
    // no rung.
    expect({ primary: primary.calls, replica: replica.calls, cache: cache.reads }).toEqual({ primary: 6, replica: 4, cache: 2 });
  });
});
