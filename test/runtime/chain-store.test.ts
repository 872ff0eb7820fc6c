// The chain store is bounded: by count (least recently used first) and by age for open chains;
// turns that must stay refused or restricted are held apart, beyond other turns' reach and time's.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChainStore, TurnState, type TurnOwner } from "../../templates/runtime/call/chain-store.ts";

function recorder(): TurnOwner & { dropped: (turn: TurnState) => void; names: string[] } {
  const names: string[] = [];
  return { names, dropped: (turn) => names.push(turn.turn) };
}

function turn(name: string, owner: TurnOwner): TurnState {
  return new TurnState(name, name, owner);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ChainStore", () => {
  it("evicts the least recently used open chain past its size and reports it", () => {
    const owner = recorder();
    const store = new ChainStore({ maxChains: 2, maxHeld: 2, ttlMs: 60_000 });
    const now = Date.now();
    store.put(turn("a", owner), now);
    store.put(turn("b", owner), now);
    store.put(store.get("a") as TurnState, now);
    store.put(turn("c", owner), now);
    expect(owner.names).toEqual(["b"]);
    expect(store.size).toBe(2);
    expect(store.get("a")?.turn).toBe("a");
  });

  it("forgets open chains after their time to live", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const store = new ChainStore({ maxChains: 10, maxHeld: 10, ttlMs: 1000 });
    store.put(turn("a", owner), Date.now());
    vi.advanceTimersByTime(1001);
    expect(store.get("a")).toBeUndefined();
    expect(owner.names).toEqual(["a"]);
  });

  it("keeps a rejected or offering turn however many open chains come after it, and however long", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const store = new ChainStore({ maxChains: 4, maxHeld: 4, ttlMs: 1000 });
    const rejected = turn("rejected", owner);
    rejected.rejected = true;
    const offering = turn("offering", owner);
    offering.offers = new Map([["/customer_ref", [{ id: "cus_1", label: "Acme" }]]]);
    store.put(rejected);
    store.put(offering);
    for (let index = 0; index < 100; index++) store.put(turn(`other-${index}`, owner));
    vi.advanceTimersByTime(24 * 60 * 60_000);
    expect(store.get("rejected")).toBe(rejected);
    expect(store.get("offering")).toBe(offering);
  });

  it("keeps a turn's live state when a stale state of the same key is deleted or dropped", () => {
    // Parallel calls of one turn can each make a state, the later put replacing the earlier under
    // its key: removing the earlier must neither forget the later (its spent budget) nor leave the
    // earlier in the order, to be dropped and reported again.
    const owner = recorder();
    const store = new ChainStore({ maxChains: 3, maxHeld: 2, ttlMs: 60_000 });
    const [stale, live] = [turn("a", owner), turn("a", owner)];
    store.put(stale);
    store.put(live);
    expect(store.get("a")).toBe(live);
    store.delete(stale);
    expect(store.get("a")).toBe(live);
    for (const name of ["b", "c", "d"]) store.put(turn(name, owner));
    expect(owner.names).toEqual(["a"]);
    expect(store.get("a")).toBeUndefined();
    expect(store.size).toBe(3);
  });

  it("bounds held turns too, separately", () => {
    const owner = recorder();
    const store = new ChainStore({ maxChains: 4, maxHeld: 2, ttlMs: 1000 });
    for (const name of ["a", "b", "c"]) {
      const state = turn(name, owner);
      state.rejected = true;
      store.put(state);
    }
    expect(store.size).toBe(2);
    expect(store.get("a")).toBeUndefined();
    expect(owner.names).toEqual(["a"]);
  });
});

describe("the store's order of open turns", () => {
  // The order of open turns is the store's own list (not its Map's): evictions and expiries must
  // come in least-recently-used order whatever was touched, deleted or held in between. The model
  // is the rule written plainly: a list in order of last put, the cap's batch and the time limit.
  type Step = { readonly op: "put" | "delete" | "hold" | "get"; readonly name: number } | { readonly op: "wait"; readonly ms: number };
  const steps = (names: number, maxLength: number): fc.Arbitrary<Step[]> =>
    fc.array(
      fc.oneof(
        fc.record({ op: fc.constantFrom("put" as const, "put" as const, "delete" as const, "hold" as const, "get" as const), name: fc.nat(names - 1) }),
        fc.record({ op: fc.constant("wait" as const), ms: fc.nat(700) }),
      ),
      // "max": lengths spread up to `maxLength` (fast-check's default keeps arrays to a few dozen steps).
      { maxLength, size: "max" },
    );

  // A small store, where the cap and the time limit bite at once; then one large enough that its
  // index of open turns (open-turns.ts) grows and purges, and the cap drops a batch (1/64 of it).
  it.each([
    { names: 12, maxLength: 80, options: { maxChains: 5, maxHeld: 3, ttlMs: 1000 }, numRuns: 500 },
    { names: 400, maxLength: 600, options: { maxChains: 128, maxHeld: 8, ttlMs: 20_000 }, numRuns: 60 },
  ])("drops turns in the order a plain list of last puts gives ($names names, at most $options.maxChains open)", ({ names, maxLength, options, numRuns }) => {
    fc.assert(
      fc.property(steps(names, maxLength), (steps) => {
        const owner = recorder();
        const store = new ChainStore(options);
        const states = new Map<number, TurnState>();
        // The model: open names, least recently put first, with the time of that put; held names apart.
        const model: { name: string; at: number }[] = [];
        const held: string[] = [];
        const expected: string[] = [];
        let now = 1_000_000;
        let sweepAt = Infinity;
        const sweep = () => {
          const target = model.length > options.maxChains ? options.maxChains - (options.maxChains >> 6) : options.maxChains;
          sweepAt = Infinity;
          while (model.length > 0) {
            const oldest = model[0] as { name: string; at: number };
            if (model.length <= target && now - oldest.at <= options.ttlMs) {
              sweepAt = oldest.at + options.ttlMs;
              break;
            }
            model.shift();
            expected.push(oldest.name);
          }
        };
        vi.useFakeTimers({ now });
        for (const next of steps) {
          if (next.op === "wait") {
            now += next.ms;
            vi.setSystemTime(now);
            continue;
          }
          const name = `t${next.name}`;
          const state = states.get(next.name);
          const at = model.findIndex((entry) => entry.name === name);
          if (next.op === "get") {
            const found = store.get(name);
            if (at >= 0 && now - (model[at] as { at: number }).at > options.ttlMs) {
              expected.push(name);
              model.splice(at, 1);
              expect(found).toBeUndefined();
            } else expect(found?.turn).toBe(at >= 0 || held.includes(name) ? name : undefined);
            continue;
          }
          if (next.op === "delete") {
            if (state !== undefined) store.delete(state);
            if (at >= 0) model.splice(at, 1);
            if (held.includes(name)) held.splice(held.indexOf(name), 1);
            continue;
          }
          // put, or hold (refuse the turn, then put it): a state the store dropped is made anew.
          const current = state !== undefined && (at >= 0 || held.includes(name)) ? state : turn(name, owner);
          states.set(next.name, current);
          if (next.op === "hold" || held.includes(name)) {
            current.rejected = true;
            store.put(current, now);
            if (at >= 0) model.splice(at, 1);
            if (!held.includes(name)) held.push(name);
            else held.push(...held.splice(held.indexOf(name), 1));
            if (held.length > options.maxHeld) expected.push(held.shift() as string);
            continue;
          }
          store.put(current, now);
          if (at >= 0) model.splice(at, 1);
          model.push({ name, at: now });
          sweepAt = Math.min(sweepAt, now + options.ttlMs);
          if (model.length > options.maxChains || now > sweepAt) sweep();
          expect(owner.names).toEqual(expected);
        }
        expect(owner.names).toEqual(expected);
        expect(store.size).toBe(model.length + held.length);
        vi.useRealTimers();
      }),
      { numRuns, seed: 31 },
    );
  });
});

describe("parallel states of one turn", () => {
  // Parallel calls of one turn can each make a state and put it, the later over the earlier: the
  // store then finds the later under the key while both stay in the order (each is dropped, and
  // reported, in its turn). The model: every state in order of its last put, and the state each
  // key finds; the cap's batch, the time limit, and the owner's count of kept states.
  type Step =
    | { readonly op: "put" | "delete"; readonly name: number; readonly which: number }
    | { readonly op: "get"; readonly name: number }
    | { readonly op: "wait"; readonly ms: number };
  const steps = (names: number, maxLength: number): fc.Arbitrary<Step[]> =>
    fc.array(
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({ op: fc.constantFrom("put" as const, "delete" as const, "put" as const), name: fc.nat(names - 1), which: fc.nat(3) }),
        },
        { weight: 2, arbitrary: fc.record({ op: fc.constant("get" as const), name: fc.nat(names - 1) }) },
        { weight: 1, arbitrary: fc.record({ op: fc.constant("wait" as const), ms: fc.nat(400) }) },
      ),
      { maxLength, size: "max" },
    );

  it.each([
    { names: 6, maxLength: 120, options: { maxChains: 4, maxHeld: 2, ttlMs: 1000 }, numRuns: 400 },
    { names: 300, maxLength: 800, options: { maxChains: 128, maxHeld: 2, ttlMs: 20_000 }, numRuns: 40 },
  ])("drops and finds them as the model does ($names names, at most $options.maxChains open)", ({ names, maxLength, options, numRuns }) => {
    fc.assert(
      fc.property(steps(names, maxLength), (steps) => {
        const dropped: TurnState[] = [];
        const owner: TurnOwner = { dropped: (state) => dropped.push(state) };
        const store = new ChainStore(options);
        const made = new Map<number, TurnState[]>();
        const ids = new Map<TurnState, number>();
        const order: { state: TurnState; at: number }[] = [];
        const found = new Map<string, TurnState>();
        const expected: TurnState[] = [];
        let now = 5_000_000;
        let sweepAt = Infinity;
        const out = (state: TurnState): void => {
          const at = order.findIndex((each) => each.state === state);
          if (at >= 0) order.splice(at, 1);
          if (found.get(state.key) === state) found.delete(state.key);
        };
        vi.useFakeTimers({ now });
        for (const step of steps) {
          if (step.op === "wait") {
            now += step.ms;
            vi.setSystemTime(now);
            continue;
          }
          const name = `t${step.name}`;
          const states = made.get(step.name) ?? [];
          made.set(step.name, states);
          if (step.op === "get") {
            const state = found.get(name);
            const put = order.find((each) => each.state === state);
            const answer = store.get(name);
            if (state !== undefined && put !== undefined && now - put.at > options.ttlMs) {
              out(state);
              expected.push(state);
              expect(answer).toBeUndefined();
            } else expect(answer).toBe(state);
          } else if (step.op === "delete") {
            const state = states[step.which % Math.max(states.length, 1)];
            if (state !== undefined) {
              store.delete(state);
              out(state);
            }
          } else {
            // 0: the state the key finds (a new one when it finds none), as a lone call would;
            // 1: a new state over it, as a parallel call makes; 2, 3: an earlier state put again.
            let state = step.which === 0 ? found.get(name) : states[step.which - 2];
            if (state === undefined || step.which === 1) {
              state = new TurnState(name, name, owner);
              states.push(state);
              ids.set(state, ids.size);
            }
            store.put(state, now);
            out(state);
            order.push({ state, at: now });
            found.set(name, state);
            sweepAt = Math.min(sweepAt, now + options.ttlMs);
            if (found.size > options.maxChains || now > sweepAt) {
              const target = found.size > options.maxChains ? options.maxChains - (options.maxChains >> 6) : options.maxChains;
              sweepAt = Infinity;
              while (order.length > 0) {
                const oldest = order[0] as { state: TurnState; at: number };
                if (found.size <= target && now - oldest.at <= options.ttlMs) {
                  sweepAt = oldest.at + options.ttlMs;
                  break;
                }
                out(oldest.state);
                expected.push(oldest.state);
              }
            }
          }
          // By identity: two states of one turn look alike field by field.
          expect(dropped.map((state) => ids.get(state))).toEqual(expected.map((state) => ids.get(state)));
          expect(store.size).toBe(found.size);
          expect(owner.kept ?? 0).toBe(order.length);
        }
        vi.useRealTimers();
      }),
      { numRuns, seed: 32 },
    );
  });
});

describe("the process's store", () => {
  it("bounds every bound tool's open chains together, not each tool's apart", async () => {
    const { PROCESS_CHAINS, DEFAULT_CHAIN_LIMITS } = await import("../../templates/runtime/call/chain-store.ts");
    const { defineTool } = await import("../../templates/runtime/call/define-tool.ts");
    const { invoiceSpec, validInvoice } = await import("./invoice-spec.ts");
    const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    const tools = [
      defineTool(invoiceSpec()).implement(() => "a", { ledger }),
      defineTool({ ...invoiceSpec(), name: "other" }).implement(() => "b", { ledger }),
    ];
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    for (const tool of tools) for (let index = 0; index < DEFAULT_CHAIN_LIMITS.maxChains; index++) await tool.call(bad, { turn: `process-${index}` });
    expect(PROCESS_CHAINS.size).toBeLessThanOrEqual(DEFAULT_CHAIN_LIMITS.maxChains);
  });

  it("reads the clock once for a failure in a new turn: the chain's start is the turn's last attempt", async () => {
    const { defineTool } = await import("../../templates/runtime/call/define-tool.ts");
    const { MemorySink } = await import("../../templates/runtime/ledger/ledger-memory.ts");
    const { invoiceSpec, validInvoice } = await import("./invoice-spec.ts");
    const ledger = new MemorySink();
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    await tool.call(bad, { turn: "one-reading-warm" });
    // Each failed call opening a chain pays for its clock readings (figure 2); one serves both
    // the chain's start (its ledger entries' startedAt) and the store's time to live.
    const now = Date.now();
    const readings = vi.spyOn(Date, "now").mockImplementation(() => now);
    const outcome = await tool.call(bad, { turn: "one-reading" });
    const count = readings.mock.calls.length;
    vi.restoreAllMocks();
    expect(outcome.status).toBe("validation_failed");
    expect(count).toBe(1);
    expect(Date.parse(ledger.last()?.startedAt as string)).toBe(now);
  });

  it("counts each owner's kept turns, so a guard with none skips the lookup", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const other = recorder();
    const store = new ChainStore({ maxChains: 2, maxHeld: 1, ttlMs: 1000 });
    const [a, b, c] = [turn("a", owner), turn("b", owner), turn("c", other)];
    store.put(a);
    store.put(b);
    store.put(a);
    expect(owner.kept).toBe(2);
    store.delete(a);
    store.delete(a);
    expect(owner.kept).toBe(1);
    expect(store.get("b")).toBe(b);
    // Evicted past the cap (b, the least recently used), then a held turn pushed out by another.
    store.put(a);
    store.put(c);
    expect([owner.kept, other.kept]).toEqual([1, 1]);
    a.rejected = true;
    store.put(a);
    const held = turn("d", other);
    held.rejected = true;
    store.put(held);
    expect([owner.kept, other.kept, store.size]).toEqual([0, 2, 2]);
    // Expired by time.
    vi.advanceTimersByTime(1001);
    expect(store.get("c")).toBeUndefined();
    expect([owner.kept, other.kept]).toEqual([0, 1]);
  });
});

describe("TurnState's open chain", () => {
  const attempt = (raw: string) => ({ raw, finishReason: undefined, failure: "structural" as const, errors: [], coercions: [] });

  it("is the turn itself for its first chain, and an identity of its own for each later one", () => {
    const state = new TurnState("k", "t", recorder());
    const started = Date.now();
    const first = state.append(attempt("a"), started);
    state.append(attempt("b"));
    expect(first).toBe(state);
    expect(state.made).toBe(2);
    expect(state.attempts().map((each) => each.raw)).toEqual(["a", "b"]);
    expect(state.last?.raw).toBe("b");
    state.close();
    expect([state.chain, state.made, state.last, state.attempts()]).toEqual([undefined, 0, undefined, []]);
    const later = state.append(attempt("c"), started + 5);
    // The earlier chain's entries may be serialised after this one opened: they read the turn's id.
    expect(later).not.toBe(state);
    expect(later.id).not.toBe(first.id);
    expect(first.id).toBe(state.id);
    expect([first.startedAt, later.startedAt]).toEqual([started, started + 5]);
    expect(state.attempts().map((each) => each.raw)).toEqual(["c"]);
  });

  it("gives back the clock readings it was handed, whatever they are", () => {
    for (const reading of [0, 1, Date.now(), 2 ** 31 + Date.now(), 8.64e15]) {
      const state = new TurnState(`k${reading}`, "t", recorder());
      state.append(attempt("a"), reading);
      expect(state.startedAt).toBe(reading);
    }
  });

  it("keeps expiring turns by the time they were put, also with readings far from the process's start", () => {
    const owner = recorder();
    const store = new ChainStore({ maxChains: 10, maxHeld: 10, ttlMs: 1000 });
    const late = Date.now() + 2 ** 32; // past a small integer's range from the store's epoch
    store.put(turn("a", owner), late - 2000);
    store.put(turn("b", owner), late);
    expect(owner.names).toEqual(["a"]);
    expect(store.size).toBe(1);
  });
});
