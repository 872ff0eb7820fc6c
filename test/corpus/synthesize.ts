// Seeded instances of a schema as its vendor wrote it (OpenAPI 3.0/3.1, Swagger 2.0 or JSON
// Schema), one per branch of every union it meets. An instance is a candidate, not a verdict:
// ajv on the schema as written decides whether it is valid (judge.ts); one it refuses is
// counted as a synthesis miss and never used against toolguard.
//
// Why our own and not json-schema-faker: the oracle needs *every branch of every union* (a
// `oneOf` branch nobody samples is where translations go wrong), chosen deterministically and
// named in the report; a random faker samples one branch per call and knows neither OpenAPI's
// `nullable` nor 3.0's boolean bounds.

import { patternAccepts, patternInstance } from "../../generator/rehearse/mistakes/pattern-instance.ts";
import { seeded, seedOf } from "../../generator/rehearse/mistakes/seeded.ts";

type Node = Record<string, unknown>;

/** A place where the instance chose between alternatives: the union's pointer and how many branches it has. */
export interface Choice {
  readonly at: string;
  readonly branches: number;
}

export interface Synthesis {
  /** Branch forced at each union pointer; unions not listed take branch 0. */
  readonly forced: ReadonlyMap<string, number>;
  /** Use `example`/`default` values where a schema has them (else synthesize from keywords). */
  readonly useExamples: boolean;
  /** Fill optional properties too (else only `required` ones). */
  readonly optional: boolean;
  readonly seed: number;
}

/** Nesting past which only required properties are filled, and past which nothing more is built. */
const OPTIONAL_DEPTH = 4;
const MAX_DEPTH = 14;

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  date: "2024-01-31",
  "date-time": "2024-01-31T12:34:56Z",
  time: "12:34:56Z",
  duration: "P1D",
  email: "someone@example.com",
  "idn-email": "someone@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/a",
  "uri-reference": "/a",
  iri: "https://example.com/a",
  "iri-reference": "/a",
  "uri-template": "https://example.com/{id}",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  "json-pointer": "/a",
  "relative-json-pointer": "0/a",
  regex: "^a+$",
  byte: "aGVsbG8=",
};

export class Synthesizer {
  readonly choices = new Map<string, number>();

  private readonly document: Node;
  private readonly synthesis: Synthesis;

  constructor(document: Node, synthesis: Synthesis) {
    this.document = document;
    this.synthesis = synthesis;
  }

  /** An instance of the schema at `pointer` in the document (a JSON Pointer, `""` for the root). */
  at(pointer: string): unknown {
    return this.value(this.resolve(pointer), pointer, 0, new Set());
  }

  /** An instance of a schema given inline (its `$ref`s resolve in the document). */
  of(schema: unknown, pointer: string): unknown {
    return this.value(schema, pointer, 0, new Set());
  }

  private resolve(pointer: string): unknown {
    let node: unknown = this.document;
    for (const token of pointer.split("/").slice(1)) {
      node = (node as Node | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return node;
  }

  private choose(at: string, branches: number): number {
    this.choices.set(at, branches);
    const forced = this.synthesis.forced.get(at);
    return forced !== undefined && forced < branches ? forced : 0;
  }

  private value(raw: unknown, pointer: string, depth: number, refs: Set<string>): unknown {
    if (raw === true || raw === undefined) return "a";
    if (raw === false || raw === null || typeof raw !== "object" || depth > MAX_DEPTH) return undefined;
    const schema = raw as Node;
    if (typeof schema.$ref === "string") {
      if (!schema.$ref.startsWith("#")) return undefined;
      const target = decodeURIComponent(schema.$ref.slice(1));
      // A recursive schema is followed once per path: the second visit takes the least instance.
      if (refs.has(target)) return this.least(this.resolve(target) as Node | undefined);
      return this.value(this.resolve(target), target, depth + 1, new Set([...refs, target]));
    }
    if (schema.nullable === true && this.choose(`${pointer}#nullable`, 2) === 1) return null;
    if (this.synthesis.useExamples) {
      if (schema.example !== undefined) return structuredClone(schema.example);
      if (Array.isArray(schema.examples) && schema.examples.length > 0) return structuredClone(schema.examples[0]);
      if (schema.default !== undefined) return structuredClone(schema.default);
    }
    if (schema.const !== undefined) return structuredClone(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      const values = schema.enum;
      // A few values, not all: a 200-value enum would be 200 instances of one field.
      return structuredClone(values[this.choose(`${pointer}/enum`, Math.min(values.length, 3))]);
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const index = this.choose(`${pointer}/${keyword}`, branches.length);
      const branch = this.value(branches[index], `${pointer}/${keyword}/${index}`, depth + 1, refs);
      // Keywords beside the union (properties of a base object) still apply.
      const { [keyword]: _union, discriminator: _discriminator, ...rest } = schema;
      if (Object.keys(rest).some((key) => key === "properties" || key === "required")) return merge(branch, this.value(rest, pointer, depth + 1, refs));
      return branch;
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const { allOf, ...rest } = schema;
      let out: unknown = Object.keys(rest).some((key) => !["description", "title", "discriminator"].includes(key))
        ? this.value(rest, pointer, depth + 1, refs)
        : undefined;
      for (const [index, member] of (allOf as unknown[]).entries()) out = merge(out, this.value(member, `${pointer}/allOf/${index}`, depth + 1, refs));
      return out;
    }
    const type = this.typeOf(schema, pointer);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return true;
      case "integer":
      case "number":
        return this.number(schema, type === "integer");
      case "string":
        return this.string(schema, pointer);
      case "array": {
        const min = typeof schema.minItems === "number" ? schema.minItems : 0;
        const count = Math.min(Math.max(min, this.synthesis.optional && depth < OPTIONAL_DEPTH ? 1 : 0), 8);
        const items = Array.isArray(schema.items) ? schema.items : undefined;
        const out: unknown[] = [];
        for (let index = 0; index < count; index++) {
          const item = items ? items[index] : (schema.items ?? schema.prefixItems);
          out.push(this.value(item, `${pointer}/items`, depth + 1, refs));
        }
        return out;
      }
      default:
        return this.object(schema, pointer, depth, refs);
    }
  }

  private typeOf(schema: Node, pointer: string): string {
    const type = schema.type;
    if (Array.isArray(type) && type.length > 0) return String(type[this.choose(`${pointer}/type`, type.length)]);
    if (typeof type === "string") return type;
    if (schema.properties || schema.additionalProperties || schema.required) return "object";
    if (schema.items || schema.prefixItems || schema.minItems !== undefined) return "array";
    if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return "number";
    if (schema.pattern !== undefined || schema.minLength !== undefined || schema.format !== undefined) return "string";
    return "string";
  }

  private object(schema: Node, pointer: string, depth: number, refs: Set<string>): Node {
    const out: Node = {};
    const properties = (schema.properties as Node | undefined) ?? {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, property] of Object.entries(properties)) {
      const wanted = required.has(name) || (this.synthesis.optional && depth < OPTIONAL_DEPTH);
      if (!wanted) continue;
      // A request never sends what the server writes (OpenAPI's readOnly).
      if ((property as Node | null)?.readOnly === true) continue;
      const value = this.value(property, `${pointer}/properties/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`, depth + 1, refs);
      if (value !== undefined) out[name] = value;
    }
    for (const name of required) if (!(name in out) && !(name in properties)) out[name] = "a";
    return out;
  }

  private number(schema: Node, integer: boolean): number {
    const step = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : 0.5;
    let low = typeof schema.minimum === "number" ? schema.minimum : undefined;
    if (typeof schema.exclusiveMinimum === "number") low = schema.exclusiveMinimum + step;
    else if (schema.exclusiveMinimum === true && low !== undefined) low += step;
    let high = typeof schema.maximum === "number" ? schema.maximum : undefined;
    if (typeof schema.exclusiveMaximum === "number") high = schema.exclusiveMaximum - step;
    else if (schema.exclusiveMaximum === true && high !== undefined) high -= step;
    let value = low ?? (high !== undefined ? Math.min(high, step) : step);
    if (step > 0) value = Math.ceil(value / step) * step;
    if (integer) value = Math.ceil(value);
    value += this.synthesis.seed % 2 === 1 && (high === undefined || value + step <= high) ? step : 0;
    // Past ±(2^53 - 1) a JSON number cannot be read back exactly, and the guard refuses it as
    // lossy (docs/openapi.md, int64): no instance of ours goes there.
    return Math.min(Number.MAX_SAFE_INTEGER, Math.max(Number.MIN_SAFE_INTEGER, value));
  }

  private string(schema: Node, pointer: string): string {
    const format = typeof schema.format === "string" ? FORMAT_SAMPLES[schema.format] : undefined;
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    // A patterned string (Twilio's `^AC[0-9a-fA-F]{32}$` Sids, Discord's snowflakes) gets one its
    // pattern accepts, unless the format's sample already does: built from the pattern's parse
    // tree with choices seeded by the instance and the place, so each instance and each field
    // draws its own. A pattern no string could be built for falls through to the plain sample
    // (a miss, if the pattern refuses it).
    if (typeof schema.pattern === "string" && !(format !== undefined && patternAccepts(schema.pattern, format))) {
      const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
      const random = seeded((Math.imul(this.synthesis.seed + 1, 0x9e3779b1) ^ seedOf(pointer)) >>> 0);
      const patterned = patternInstance(schema.pattern, { random, minLength: min, ...(maxLength !== undefined ? { maxLength } : {}) });
      if (patterned !== undefined) return patterned;
    }
    let out = format ?? (this.synthesis.seed % 2 === 1 ? "b" : "a");
    if (out.length < min) out = out.padEnd(Math.min(min, 4096), format ? "0" : "a");
    if (typeof schema.maxLength === "number" && out.length > schema.maxLength) out = out.slice(0, schema.maxLength);
    return out;
  }

  /** The smallest instance of a schema met again through recursion: no optional property, no item. */
  private least(schema: Node | undefined): unknown {
    if (!schema) return undefined;
    if (schema.nullable === true) return null;
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === "array") return [];
    if (type === "string") return "a";
    if (type === "integer" || type === "number") return this.number(schema, type === "integer");
    if (type === "boolean") return true;
    return {};
  }
}

function merge(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) return { ...a, ...b };
  return b;
}

/**
 * Instances for every branch of every union met: the base choices first, then, for each union
 * met so far, each of its other branches (unions found inside a branch join the queue), up to
 * `limit` instances. `build` makes one instance with the given synthesizer.
 */
export function everyBranch(document: Node, build: (synthesizer: Synthesizer) => unknown, limit: number): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  const queue: Map<string, number>[] = [new Map()];
  const tried = new Set<string>();
  let seed = 0;
  while (queue.length > 0 && out.length < limit) {
    const forced = queue.shift()!;
    for (const [useExamples, optional] of [
      [false, true],
      [true, true],
      [false, false],
    ] as const) {
      if (out.length >= limit) break;
      const synthesizer = new Synthesizer(document, { forced, useExamples, optional, seed: seed++ });
      const instance = build(synthesizer);
      const text = JSON.stringify(instance);
      if (text !== undefined && !seen.has(text)) {
        seen.add(text);
        out.push(instance);
      }
      for (const [at, branches] of synthesizer.choices) {
        for (let branch = 1; branch < branches; branch++) {
          const key = `${at}=${branch}`;
          if (tried.has(key)) continue;
          tried.add(key);
          queue.push(new Map([...forced, [at, branch]]));
        }
      }
    }
  }
  return out;
}
