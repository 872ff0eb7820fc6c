// Calls that hold a member of each tagged union of a schema (issue 31: the two union-tag classes
// had one case each, because a tool's one valid call takes each union's first branch, and only
// where an optional field happened to be sent). Every union whose object members are told apart
// by a tag (a property each member pins to its own `const` or single `enum` value; toolguard's
// translation pins a `discriminator`'s members so) is found wherever it sits: in a property, an
// item, a member of another union. For each of its members, a valid call is made that holds it
// there, tag and own fields included; the union classes of shape-classes.ts mutate those.
import type { CorpusCase } from "../mistake-case.ts";
import type { Leaf } from "./classes.ts";
import { deref, isSchema, propertiesOf, type Schema } from "./schema-view.ts";
import type { Seeded } from "./seeded.ts";
import { instanceOf } from "./instance.ts";
import { SHAPE_CLASSES, tagOf, unionObjectBranches } from "./shape-classes.ts";

const MAX_DEPTH = 8;

/** A tagged union, where it sits in a call. */
export interface TaggedUnion {
  readonly path: readonly string[];
  /** The schema of each prefix of `path` (index i: `path.slice(0, i)`), members of unions on the way included. */
  readonly chain: readonly Schema[];
  readonly union: Schema;
  readonly branches: readonly Schema[];
  readonly tag: { readonly name: string; readonly values: readonly string[] };
}

/** Every tagged union of `root`, in the order a depth-first walk meets them (each `$ref` once per path). */
export function taggedUnions(root: Schema): TaggedUnion[] {
  const found: TaggedUnion[] = [];
  const seen = new Set<string>();
  // `inUnion`: the place is inside a member of an untagged union, whose other members may hold the
  // same place with other tags (OpenAI's input item: an untagged `anyOf` of a message with its
  // own content union, and of items whose messages have another): which tag is meant is then not
  // determined by the schema and the mistake, so no case is made there.
  const walk = (raw: unknown, path: string[], chain: Schema[], refs: ReadonlySet<string>, inUnion: boolean): void => {
    if (path.length > MAX_DEPTH || !isSchema(raw)) return;
    const ref = typeof raw.$ref === "string" ? raw.$ref : undefined;
    if (ref !== undefined && refs.has(ref)) return;
    const inner = ref === undefined ? refs : new Set([...refs, ref]);
    const node = deref(raw, root);
    if (node === undefined) return;
    const here = [...chain.slice(0, -1), node];
    const members = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (Array.isArray(members)) {
      const branches = unionObjectBranches(node, root);
      const tag = branches && tagOf(branches, root);
      const key = `${path.join("/")} ${JSON.stringify(tag)}`;
      if (branches && tag && !inUnion && !seen.has(key)) {
        seen.add(key);
        found.push({ path, chain: here, union: node, branches, tag });
      }
      // A tagged union's member is determined by its tag, which the call keeps: places inside it are as determined as the union's own.
      for (const member of members) walk(member, path, here, inner, inUnion || !(branches && tag));
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) walk(part, path, here, inner, inUnion);
    for (const [name, property] of Object.entries(propertiesOf(node))) walk(property, [...path, name], [...here, deref(property, root) ?? {}], inner, inUnion);
    if (isSchema(node.items)) walk(node.items, [...path, "0"], [...here, deref(node.items, root) ?? {}], inner, inUnion);
  };
  walk(root, [], [root], new Set(), false);
  return found;
}

/** A member of `union`'s branch `index`: its tag set, and each field only this branch declares. */
function memberOf(union: TaggedUnion, index: number, root: Schema, random: Seeded): Record<string, unknown> | undefined {
  const branch = union.branches[index] as Schema;
  const member = instanceOf(branch, root, random);
  if (!isSchema(member)) return undefined;
  member[union.tag.name] = union.tag.values[index];
  const others = union.branches.filter((_b, i) => i !== index);
  for (const [name, property] of Object.entries(propertiesOf(branch))) {
    if (Object.hasOwn(member, name) || others.some((other) => Object.hasOwn(propertiesOf(other), name))) continue;
    const value = instanceOf(property, root, random);
    if (value !== undefined) member[name] = value;
  }
  return member;
}

/** `valid` with `member` at the union's place, each missing container on the way made from its schema. */
function placed(valid: unknown, union: TaggedUnion, member: unknown, root: Schema, random: Seeded): unknown {
  if (union.path.length === 0) return member;
  const call = structuredClone(valid);
  if (!isSchema(call)) return undefined;
  let node: Record<string, unknown> | unknown[] = call;
  for (const [index, token] of union.path.entries()) {
    const last = index === union.path.length - 1;
    const holder = node as Record<string, unknown>;
    if (last) {
      holder[token] = member;
      break;
    }
    let child = holder[token];
    const wanted = union.chain[index + 1] as Schema;
    const isArray = union.path[index + 1] === "0";
    if (child === null || typeof child !== "object" || Array.isArray(child) !== isArray) {
      child = isArray ? [] : instanceOf(wanted, root, random);
      if (child === null || typeof child !== "object") return undefined;
      holder[token] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
  return call;
}

/**
 * For each tagged union of `root` and each of its members, the leaf of that member in a call the
 * schema accepts (`accepts`), at most `limit` in all, taking the unions' members in turn.
 */
export function unionMemberCalls(
  root: Schema,
  valid: unknown,
  options: { readonly random: Seeded; readonly accepts: (call: unknown) => boolean; readonly limit: number },
): { readonly leaf: Leaf; readonly call: unknown }[] {
  const unions = taggedUnions(root);
  const out: { leaf: Leaf; call: unknown }[] = [];
  const widest = Math.max(0, ...unions.map((union) => union.branches.length));
  for (let index = 0; index < widest && out.length < options.limit; index++) {
    for (const union of unions) {
      if (index >= union.branches.length || out.length >= options.limit) continue;
      const member = memberOf(union, index, root, options.random);
      const call = member && placed(valid, union, member, root, options.random);
      if (call === undefined || !options.accepts(call)) continue;
      out.push({ leaf: { path: union.path, value: member, schema: union.union, required: true, union: true }, call });
    }
  }
  return out;
}

/** The classes about a union member's tag, made on the calls above. */
export const UNION_TAG_CLASSES = ["union member with its tag left out", "union member with a wrong tag"] as const;

/** Union members a tool's calls are mutated on, at most (per class). */
const UNION_CASES_PER_TOOL = 24;

/**
 * The union-tag mistakes of one tool: each class of UNION_TAG_CLASSES on the members of every
 * tagged union of `schema` (unionMemberCalls), at most UNION_CASES_PER_TOOL per class.
 */
export function unionTagMistakes(
  tool: string,
  source: string,
  schema: Schema,
  context: { readonly valid: unknown; readonly random: Seeded; readonly accepts: (call: unknown) => boolean },
): CorpusCase[] {
  const out: CorpusCase[] = [];
  const calls = unionMemberCalls(schema, context.valid, { random: context.random, accepts: context.accepts, limit: UNION_CASES_PER_TOOL });
  for (const mistake of UNION_TAG_CLASSES) {
    let made = 0;
    for (const { leaf, call } of calls) {
      const result = SHAPE_CLASSES[mistake]?.(leaf, call, context.random, [], schema);
      if (result === undefined) continue;
      out.push({ id: `${tool}: ${mistake} member ${made}`, source, tool, mistake, args: result[0], expect: result[1] });
      made++;
    }
  }
  return out;
}
