// The brief's composition rules, with the resilience libraries users run (cockatiel 4,
// opossum 10): a call the guard rejected touched no dependency, so no breaker counts it, no
// fallback answers it, no retry repeats it and no timeout is started for it. Each recipe is the
// README's; each "without the filter" case shows the same sequence going wrong when the filter
// (or the placement) is dropped, so the assertion is load-bearing.
import {
  circuitBreaker,
  CircuitState,
  ConsecutiveBreaker,
  ConstantBackoff,
  fallback,
  handleAll,
  handleWhen,
  retry,
  timeout,
  TimeoutStrategy,
  type Policy,
} from "cockatiel";
import CircuitBreaker from "opossum";
import { describe, expect, it } from "vitest";
import { defineTool, isArgumentFailure, isDependencyFailure, MemorySink, unwrap } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

const invalid = JSON.stringify({ ...validInvoice, amount: "1,299.00" });
const valid = JSON.stringify(validInvoice);

/** A guarded invoice tool whose backend fails while `down` is set; counts backend calls. */
function invoiceTool() {
  const backend = { calls: 0, down: false };
  const tool = defineTool(invoiceSpec()).implement(
    async () => {
      backend.calls++;
      if (backend.down) throw new Error("billing backend unavailable");
      return { id: "inv_1" };
    },
    { ledger: new MemorySink() },
  );
  return { tool, backend };
}

let turnSeq = 0;
const turn = () => ({ turn: `t${++turnSeq}` });

describe("taxonomy", () => {
  it("tells the model's failures (values) from the dependency's (thrown, marked)", async () => {
    const { tool, backend } = invoiceTool();
    const rejected = await tool.call(invalid, turn());
    expect(isArgumentFailure(rejected)).toBe(true);
    expect(isDependencyFailure(rejected)).toBe(false);
    backend.down = true;
    const thrown = await tool.call(valid, turn()).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe("billing backend unavailable"); // propagated unchanged
    expect(isDependencyFailure(thrown)).toBe(true);
    expect(isArgumentFailure(thrown)).toBe(false);
    expect(isDependencyFailure(new Error("unrelated"))).toBe(false);
    expect(() => unwrap(rejected)).toThrow(expect.objectContaining({ name: "ArgumentFailureError", outcome: rejected }));
  });
});

describe("cockatiel around call", () => {
  const breakerFor = (filter: Policy) => circuitBreaker(filter, { halfOpenAfter: 60_000, breaker: new ConsecutiveBreaker(3) });

  it("a breaker is not ticked by any number of invalid calls, and opens on implementation failures", async () => {
    const run = async (filter: Policy) => {
      const { tool, backend } = invoiceTool();
      const breaker = breakerFor(filter);
      const call = (raw: string) => breaker.execute(() => tool.call(raw, turn()).then(unwrap));
      for (let i = 0; i < 10; i++) await call(invalid).catch(() => undefined);
      const afterInvalid = breaker.state;
      backend.down = true;
      for (let i = 0; i < 3; i++) await call(valid).catch(() => undefined);
      return { afterInvalid, afterFailures: breaker.state };
    };
    expect(await run(handleWhen(isDependencyFailure))).toEqual({ afterInvalid: CircuitState.Closed, afterFailures: CircuitState.Open });
    // Without the filter, the model's mistakes open the breaker on a healthy backend.
    expect((await run(handleAll)).afterInvalid).toBe(CircuitState.Open);
  });

  it("a fallback does not answer a validation failure, and does answer a dependency failure", async () => {
    const { tool, backend } = invoiceTool();
    const cached = fallback(handleWhen(isDependencyFailure), { id: "cached" });
    const answer = (raw: string) => cached.execute(() => tool.call(raw, turn()).then(unwrap)).catch((error: unknown) => error);
    const rejected = await answer(invalid);
    expect(isArgumentFailure(rejected)).toBe(true); // the model hears about its arguments
    backend.down = true;
    expect(await answer(valid)).toEqual({ id: "cached" });
    // Without the filter, the stale answer masks the model's defect.
    const unfiltered = fallback(handleAll, { id: "cached" });
    expect(await unfiltered.execute(() => tool.call(invalid, turn()).then(unwrap))).toEqual({ id: "cached" });
  });

  it("a retry never re-runs an invalid call, and retries a failing dependency", async () => {
    const attempts = async (filter: Policy, raw: string, down: boolean) => {
      const { tool, backend } = invoiceTool();
      backend.down = down;
      let guardCalls = 0;
      const policy = retry(filter, { maxAttempts: 3, backoff: new ConstantBackoff(1) });
      await policy
        .execute(() => {
          guardCalls++;
          return tool.call(raw, turn()).then(unwrap);
        })
        .catch(() => undefined);
      return { guardCalls, backendCalls: backend.calls };
    };
    expect(await attempts(handleWhen(isDependencyFailure), invalid, false)).toEqual({ guardCalls: 1, backendCalls: 0 });
    expect(await attempts(handleWhen(isDependencyFailure), valid, true)).toEqual({ guardCalls: 4, backendCalls: 4 });
    // Without the filter, the same invalid arguments are resent three more times.
    expect((await attempts(handleAll, invalid, false)).guardCalls).toBe(4);
  });
});

describe("policies inside implement (the recommended placement)", () => {
  it("a timeout is never started for an invalid call", async () => {
    const started = { count: 0 };
    const deadline = timeout(1_000, TimeoutStrategy.Aggressive);
    deadline.onSuccess(() => started.count++);
    deadline.onFailure(() => started.count++);
    const tool = defineTool(invoiceSpec()).implement((_args, ctx) => deadline.execute(async ({ signal }) => (signal.aborted ? "late" : ctx.tool)), {
      ledger: new MemorySink(),
    });
    for (let i = 0; i < 5; i++) await tool.call(invalid, turn());
    expect(started.count).toBe(0);
    expect((await tool.call(valid, turn())).status).toBe("ok");
    expect(started.count).toBe(1);
    // Around `call` instead, the timer starts for every call, rejected ones included.
    const outside = timeout(1_000, TimeoutStrategy.Aggressive);
    let outsideStarts = 0;
    outside.onSuccess(() => outsideStarts++);
    for (let i = 0; i < 5; i++) await outside.execute(() => tool.call(invalid, turn()));
    expect(outsideStarts).toBe(5);
  });

  it("an opossum breaker inside implement never fires for invalid calls and opens on failures", async () => {
    let down = false;
    const backend = async (amount: number) => {
      if (down) throw new Error("billing backend unavailable");
      return { id: "inv_1", amount };
    };
    const breaker = new CircuitBreaker(backend, { timeout: 1_000, errorThresholdPercentage: 50, volumeThreshold: 2, resetTimeout: 60_000 });
    const tool = defineTool<typeof validInvoice>(invoiceSpec()).implement((args) => breaker.fire(args.amount), { ledger: new MemorySink() });
    for (let i = 0; i < 10; i++) expect((await tool.call(invalid, turn())).status).toBe("validation_failed");
    expect(breaker.stats.fires).toBe(0);
    down = true;
    for (let i = 0; i < 3; i++) await tool.call(valid, turn()).catch((error: unknown) => expect(isDependencyFailure(error)).toBe(true));
    expect(breaker.opened).toBe(true);
    breaker.shutdown();
  });

  it("an opossum breaker around call counts only dependency failures with errorFilter", async () => {
    const run = async (filtered: boolean) => {
      const { tool } = invoiceTool();
      const fire = (raw: string) => tool.call(raw, turn()).then(unwrap);
      const breaker = new CircuitBreaker(fire, {
        timeout: false,
        errorThresholdPercentage: 50,
        volumeThreshold: 2,
        resetTimeout: 60_000,
        ...(filtered ? { errorFilter: (error: unknown) => !isDependencyFailure(error) } : {}),
      });
      for (let i = 0; i < 5; i++) await breaker.fire(invalid).catch(() => undefined);
      const opened = breaker.opened;
      breaker.shutdown();
      return opened;
    };
    expect(await run(true)).toBe(false);
    expect(await run(false)).toBe(true);
  });
});
