// The `$ref` fan-out bound counts without expanding (issue 32: refusing ten levels of ten
// properties took more than 90 s, and 20,000 plain properties were refused as a fan-out). Every
// walk that follows `$ref`s into a tool's locations is held to work that grows with the schema,
// not with its expansion: by step counts where the walk counts them, by reads (every property read
// of the schema object, counted through a Proxy) where it does not. No clock limit.
import { describe, expect, it } from "vitest";
import { buildCoercionTable, MAX_LOCATIONS } from "../../generator/emit/coercion-table.ts";
import { hazardWalk } from "../../generator/emit/hazard-walk.ts";
import { countLocations } from "../../generator/emit/location-count.ts";
import { referenceRewrites } from "../../generator/emit/reference-rewrites.ts";
import { InputError } from "../../generator/errors.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { toolOf } from "../hostile/load-validator.ts";
import { GROWTH_FACTOR } from "../helpers/growth.ts";

type Schema = Record<string, unknown>;

/** `levels` definitions, each an object of `width` properties that all refer to the one below. */
function fan(levels: number, width: number): Schema {
  const $defs: Schema = { l0: { type: "integer" } };
  for (let level = 1; level <= levels; level++) {
    $defs[`l${level}`] = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: width }, (_, i) => [`p${i}`, { $ref: `#/$defs/l${level - 1}` }])),
    };
  }
  return { type: "object", properties: { root: { $ref: `#/$defs/l${levels}` } }, $defs };
}

/** The oracle: every location, expanded one by one as the coercion table visits them. */
function expandedByHand(root: Schema): number {
  const resolve = (ref: string): Schema =>
    ref
      .slice(2)
      .split("/")
      .reduce<Schema>((node, token) => node[token.replaceAll("~1", "/").replaceAll("~0", "~")] as Schema, root);
  const visit = (schema: Schema, seen: ReadonlySet<string>): number => {
    let total = 1;
    const parts = (node: Schema, on: ReadonlySet<string>): [Schema, ReadonlySet<string>][] => {
      const out: [Schema, ReadonlySet<string>][] = [[node, on]];
      if (typeof node["$ref"] === "string" && !on.has(node["$ref"])) out.push(...parts(resolve(node["$ref"]), new Set([...on, node["$ref"]])));
      for (const branch of (node["allOf"] as Schema[] | undefined) ?? []) out.push(...parts(branch, on));
      return out;
    };
    for (const [part, on] of parts(schema, seen)) {
      for (const child of Object.values((part["properties"] as Record<string, Schema> | undefined) ?? {})) total += visit(child, on);
      if (part["items"]) total += visit(part["items"] as Schema, on);
    }
    return total;
  };
  return visit(root, new Set());
}

const table = (inputSchema: Schema) => buildCoercionTable(toolOf(inputSchema));

describe("the $ref fan-out bound", () => {
  it.each([
    ["a fan of 3 levels of 4", fan(3, 4)],
    ["a fan of 4 levels of 3", fan(4, 3)],
    ["allOf branches that share a definition", { allOf: [{ $ref: "#/$defs/l2" }, { $ref: "#/$defs/l2" }], $defs: fan(2, 3)["$defs"] }],
    [
      "items of a shared definition",
      { type: "object", properties: { x: { type: "array", items: { $ref: "#/$defs/l2" } }, y: { $ref: "#/$defs/l1" } }, $defs: fan(2, 2)["$defs"] },
    ],
  ])("counts %s as the expansion does", (_what, schema) => {
    expect(countLocations(schema).expanded).toBe(expandedByHand(schema));
  });

  it("counts in steps that grow with the schema, not with its expansion", () => {
    const small = countLocations(fan(10, 10));
    const large = countLocations(fan(80, 10));
    expect(small.expanded).toBeGreaterThan(1e10);
    expect(large.expanded).toBeGreaterThan(1e80);
    expect(large.steps / small.steps).toBeLessThan(GROWTH_FACTOR + 1);
  });

  it("refuses ten levels of ten, naming the bound, what the schema writes out and the expansion", () => {
    expect(() => table(fan(10, 10))).toThrow(InputError);
    expect(() => table(fan(10, 10))).toThrow(
      /tool hostile: its \$refs expand into more than 20000 argument locations beyond the 2 it writes out \(a reference fan-out; 11111111112 in all\)/,
    );
  });

  it("refuses recursion that multiplies paths, without following them all", () => {
    // Eight definitions that each refer to all the others: 8! paths through 8 schemas.
    const names = Array.from({ length: 8 }, (_, i) => `d${i}`);
    const $defs = Object.fromEntries(
      names.map((name) => [name, { type: "object", properties: Object.fromEntries(names.map((other) => [other, { $ref: `#/$defs/${other}` }])) }]),
    );
    expect(() => table({ type: "object", properties: { start: { $ref: "#/$defs/d0" } }, $defs })).toThrow(
      /reference fan-out; reached \/start\/.* through recursive \$refs/,
    );
  });

  it("is about what the $refs add: 20,000 plain properties, or 20,000 uses of one definition, are no fan-out", () => {
    const plain = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_LOCATIONS }, (_, i) => [`p${i}`, { type: "integer" }])) };
    expect(Object.keys(table(plain))).toHaveLength(MAX_LOCATIONS);
    const shared = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: MAX_LOCATIONS }, (_, i) => [`p${i}`, { $ref: "#/$defs/n" }])),
      $defs: { n: { type: "number" } },
    };
    expect(Object.keys(table(shared))).toHaveLength(MAX_LOCATIONS);
    // A modest fan is still generated: 10^4 locations.
    expect(Object.keys(table(fan(4, 10)))).toHaveLength(10_000);
  });

  it("the hazard walk's depth is computed once per shared object", () => {
    // The depth is read off the walk's own shapes, not the schema, so its cost is timed: CPU time
    // at 12 and at 24 levels of two (twice the schema; 4,096 times the expanded tree). First, so
    // that a walk of the expanded tree fails here rather than never finish 2^60 steps below.
    const walk = (levels: number) => () => hazardWalk({ inputSchema: fan(levels, 2) as JsonSchema });
    expect(cpuRatio(walk(12), walk(24))).toBeLessThan(6);
    expect(hazardWalk({ inputSchema: fan(60, 2) as JsonSchema })?.text).toContain("  return {\n    depth: 61,");
  });

  it("the hazard walk shares one function per set of alternatives (guarded values, walk-shapes.ts)", () => {
    // Ten levels, each of ten properties that are a string or either of two objects of the next
    // level: one function per level and pair, not one per path (10^10) nor one per property.
    const $defs: Schema = {};
    for (let level = 0; level < 10; level++) {
      const properties: Schema = {};
      for (let p = 0; p < 10; p++)
        properties[`p${p}`] =
          level === 9 ? { type: "string" } : { oneOf: [{ type: "string" }, { $ref: `#/$defs/l${level + 1}` }, { $ref: `#/$defs/m${level + 1}` }] };
      $defs[`l${level}`] = { type: "object", properties };
      $defs[`m${level}`] = { type: "object", properties: { ...properties, q: { type: "integer" } } };
    }
    const schema = { type: "object", properties: { u: { oneOf: [{ type: "string" }, { $ref: "#/$defs/l0" }] } }, $defs };
    const text = hazardWalk({ inputSchema: schema as JsonSchema })?.text ?? "";
    expect(text.match(/ {2}function walk_/g)?.length).toBe(11);
    expect(text).toContain("  return {\n    depth: 11,");
  });

  it("a reference rewrite reads a shared allOf branch once", () => {
    const nested = (depth: number): Schema => {
      const $defs: Schema = { a0: { type: "object", properties: { x: { type: "string" }, y: { type: "string" } } } };
      for (let level = 1; level <= depth; level++) $defs[`a${level}`] = { allOf: [{ $ref: `#/$defs/a${level - 1}` }, { $ref: `#/$defs/a${level - 1}` }] };
      return { $ref: `#/$defs/a${depth}`, $defs };
    };
    const rewrites = (schema: Schema) => referenceRewrites({ references: { "/x": { kind: "thing", target: "y" } }, inputSchema: schema as JsonSchema });
    expect(rewrites(nested(3))?.text).toContain('case "y"');
    // allOf: [A, A] nested 20 deep is 2^20 schemas read one by one.
    expect(readsBy(rewrites, nested(20)) / readsBy(rewrites, nested(5))).toBeLessThan(8);
  });
});

/** How many properties of `schema` (at any depth) `work` reads: a step count that no machine load changes. */
function readsBy(work: (schema: Schema) => unknown, schema: Schema): number {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    const known = proxies.get(value);
    if (known) return known;
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        reads++;
        return wrap(Reflect.get(target, key, receiver));
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  work(wrap(schema) as Schema);
  return reads;
}

/**
 * CPU time of `large` over `small`, each the best of five interleaved samples, each sample repeated
 * until the small one takes 20 ms (test/helpers/growth.ts's method, at a chosen pair of sizes).
 */
function cpuRatio(small: () => unknown, large: () => unknown): number {
  const sample = (work: () => unknown, repeats: number): number => {
    const started = process.cpuUsage();
    for (let i = 0; i < repeats; i++) work();
    const used = process.cpuUsage(started);
    return used.user + used.system;
  };
  let repeats = 1;
  while (sample(small, repeats) < 20_000 && repeats < 1 << 12) repeats *= 2;
  let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let run = 0; run < 5; run++) best = [Math.min(best[0] as number, sample(small, repeats)), Math.min(best[1] as number, sample(large, repeats))];
  return (best[1] as number) / (best[0] as number);
}
