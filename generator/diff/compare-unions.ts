// Unions (anyOf/oneOf), intersections (allOf) and conditionals. Branches are paired by what
// names them (the definition a `$ref` points to, the value of a required `const` property that
// tells branches apart, a title), then by equal content, then by position; paired branches are
// compared like any schema. What cannot be paired, and conditionals, are judged conservatively:
// "possibly breaking", never "neither".
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type At, type CompareContext, report, where } from "./compare-context.ts";
import { worstOf } from "./change.ts";
import { isBareUnion } from "./keywords.ts";
import { canonical, deref } from "./schema-view.ts";
import { cannotOverlap } from "./branch-overlap.ts";

/** `anyOf`/`oneOf` (branches paired, then compared), `allOf` and the conditional keywords of one pair of schemas. */
export function compareUnions(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const before = unionOf(a);
  const after = unionOf(b);
  if (before && after) compareBranches(ctx, before, after, at);
  else if (after && !isBareUnion(b)) {
    // Alternatives beside other keywords constrain the object they sit in: which old calls still
    // pass depends on both, which this comparison does not combine.
    report(ctx, at, {
      keyword: after.keyword,
      toolTeams: "possibly",
      models: "possibly",
      message: `${where(at.path)}: must now also match ${after.keyword === "oneOf" ? "exactly one" : "one"} of ${after.branches.length} alternatives (${after.keyword})`,
    });
  } else if (after) becameUnion(ctx, a, after, at);
  else if (before) leftUnion(ctx, before, b, at);
  compareAllOf(ctx, a, b, at);
  for (const keyword of ["not", "if", "then", "else"]) {
    if (canonical(a[keyword]) === canonical(b[keyword])) continue;
    report(ctx, at, {
      keyword,
      inOld: !(keyword in b),
      toolTeams: "none",
      models: "possibly",
      message: `${where(at.path)}: conditional keyword ${keyword} changed; values that passed may now fail`,
    });
  }
}

/** Whether every value `oldNode` accepted, `newNode` still accepts, as far as the comparison can tell. */
function keepsCalls(ctx: CompareContext, oldNode: unknown, newNode: unknown, at: At): boolean {
  return worstOf(ctx.trial(oldNode, newNode, at), "models") === "none";
}

/** One shape became several: a widening when the old shape is one of the branches. */
function becameUnion(ctx: CompareContext, a: Schema, after: Union, at: At): void {
  const kept = after.branches.findIndex((branch, index) =>
    keepsCalls(ctx, withoutUnion(a), branch, { ...at, newPointer: `${at.newPointer}/${after.keyword}/${index}` }),
  );
  const others = after.branches.length - 1;
  report(
    ctx,
    at,
    kept >= 0
      ? {
          keyword: after.keyword,
          toolTeams: "breaking",
          models: after.keyword === "oneOf" ? "possibly" : "none",
          message: `${where(at.path)}: the model may now also send ${others} other shape${others === 1 ? "" : "s"} (${after.keyword} of ${after.branches.length}; the old one is branch ${kept}), and the implementation must handle ${others === 1 ? "it" : "them"}`,
        }
      : {
          keyword: after.keyword,
          toolTeams: "breaking",
          models: "possibly",
          message: `${where(at.path)}: became a union of ${after.branches.length} shapes (${after.keyword}), none of which is the old one`,
        },
  );
}

/** Several shapes became one: a narrowing unless that one takes every old branch. */
function leftUnion(ctx: CompareContext, before: Union, b: Schema, at: At): void {
  const keeping = before.branches.filter((branch, index) =>
    keepsCalls(ctx, branch, withoutUnion(b), { ...at, oldPointer: `${at.oldPointer}/${before.keyword}/${index}` }),
  ).length;
  if (keeping === before.branches.length) {
    report(ctx, at, {
      keyword: before.keyword,
      inOld: true,
      toolTeams: "possibly",
      models: "none",
      message: `${where(at.path)}: the ${before.keyword} of ${before.branches.length} shapes became one schema that takes all of them`,
    });
  } else {
    report(ctx, at, {
      keyword: before.keyword,
      inOld: true,
      toolTeams: "possibly",
      models: keeping > 0 ? "breaking" : "possibly",
      message: `${where(at.path)}: is no longer a union of ${before.branches.length} shapes (${before.keyword}); ${keeping > 0 ? `${before.branches.length - keeping} of them now fail` : "values of the old shapes may now fail"}`,
    });
  }
}

function withoutUnion(schema: Schema): Schema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
  return rest;
}

interface Union {
  readonly keyword: "anyOf" | "oneOf";
  readonly branches: readonly unknown[];
}

function unionOf(schema: Schema): Union | undefined {
  if (Array.isArray(schema.anyOf)) return { keyword: "anyOf", branches: schema.anyOf };
  if (Array.isArray(schema.oneOf)) return { keyword: "oneOf", branches: schema.oneOf };
  return undefined;
}

function compareBranches(ctx: CompareContext, before: Union, after: Union, at: At): void {
  if (before.keyword !== after.keyword) {
    const stricter = after.keyword === "oneOf";
    report(ctx, at, {
      keyword: after.keyword,
      toolTeams: "none",
      models: stricter ? "possibly" : "none",
      message: stricter
        ? `${where(at.path)}: anyOf became oneOf; a value matching two branches now fails`
        : `${where(at.path)}: oneOf became anyOf; the model may now send values matching several branches`,
    });
  }
  const pairs = pairBranches(ctx, before.branches, after.branches);
  for (const [oldIndex, newIndex] of pairs) {
    ctx.compare(before.branches[oldIndex], after.branches[newIndex], {
      path: at.path,
      oldPointer: `${at.oldPointer}/${before.keyword}/${oldIndex}`,
      newPointer: `${at.newPointer}/${after.keyword}/${newIndex}`,
    });
  }
  const pairedOld = new Set(pairs.map(([oldIndex]) => oldIndex));
  const pairedNew = new Set(pairs.map(([, newIndex]) => newIndex));
  before.branches.forEach((branch, index) => {
    if (pairedOld.has(index)) return;
    report(
      ctx,
      { ...at, oldPointer: `${at.oldPointer}/${before.keyword}/${index}` },
      {
        keyword: "",
        inOld: true,
        toolTeams: "possibly",
        models: "possibly",
        message: `${where(at.path)}: union branch ${branchName(ctx.oldRoot, branch, index)} removed; values only it accepted now fail (the argument type loses that shape)`,
      },
    );
  });
  after.branches.forEach((branch, index) => {
    if (pairedNew.has(index)) return;
    // oneOf fails a value matching two branches; a branch no other can overlap breaks no call.
    const apart =
      after.keyword === "oneOf"
        ? after.branches.map((other, at) => (at === index ? "" : cannotOverlap(ctx.newRoot, branch, other))).filter((reason) => reason !== "")
        : [];
    const disjoint = after.keyword === "oneOf" && apart.every((reason) => reason !== undefined);
    const oneOfNote = disjoint
      ? apart.length === 0
        ? " (oneOf: it is the only branch, so no value can match two)"
        : ` (oneOf: it cannot overlap the other branches, so no valid call starts failing; ${apart.length === 1 ? "" : "e.g. "}${apart[0]})`
      : after.keyword === "oneOf"
        ? " (oneOf: a value that also matches it now fails)"
        : "";
    report(
      ctx,
      { ...at, newPointer: `${at.newPointer}/${after.keyword}/${index}` },
      {
        keyword: "",
        toolTeams: "breaking",
        models: after.keyword === "oneOf" && !disjoint ? "possibly" : "none",
        message: `${where(at.path)}: new union branch ${branchName(ctx.newRoot, branch, index)}: the model may now send that shape, and the implementation must handle it${oneOfNote}`,
      },
    );
  });
}

/** Pairs of [old index, new index]: by name, then by equal content, then by position. */
function pairBranches(ctx: CompareContext, before: readonly unknown[], after: readonly unknown[]): [number, number][] {
  const pairs: [number, number][] = [];
  const freeOld = new Set(before.keys());
  const freeNew = new Set(after.keys());
  const pairBy = (keyOf: (root: Schema, branch: unknown) => string | undefined): void => {
    const byKey = new Map<string, number>();
    for (const index of freeOld) {
      const key = keyOf(ctx.oldRoot, before[index]);
      if (key !== undefined && !byKey.has(key)) byKey.set(key, index);
    }
    for (const index of [...freeNew]) {
      const key = keyOf(ctx.newRoot, after[index]);
      const match = key === undefined ? undefined : byKey.get(key);
      if (match === undefined || !freeOld.has(match)) continue;
      pairs.push([match, index]);
      freeOld.delete(match);
      freeNew.delete(index);
    }
  };
  pairBy(nameKey);
  pairBy((root, branch) => canonical(deref(root, branch, "").node));
  // Left over in equal numbers: most often one branch edited in place.
  if (freeOld.size === freeNew.size) {
    const olds = [...freeOld];
    for (const [position, newIndex] of [...freeNew].entries()) pairs.push([olds[position] as number, newIndex]);
  }
  return pairs.sort(([a], [b]) => a - b);
}

/** What names a branch: its definition, its discriminating value, or its title. */
function nameKey(root: Schema, branch: unknown): string | undefined {
  if (isSchemaObject(branch) && typeof branch.$ref === "string") return `ref:${branch.$ref.split("/").pop()}`;
  const { node } = deref(root, branch, "");
  if (!isSchemaObject(node)) return undefined;
  const tag = discriminatingValue(node);
  if (tag) return `tag:${tag}`;
  return typeof node.title === "string" ? `title:${node.title}` : undefined;
}

function discriminatingValue(node: Schema): string | undefined {
  if (!isSchemaObject(node.properties) || !Array.isArray(node.required)) return undefined;
  for (const key of node.required) {
    const property = (node.properties as Schema)[key as string];
    if (!isSchemaObject(property)) continue;
    if ("const" in property) return `${key}=${canonical(property.const)}`;
    if (Array.isArray(property.enum) && property.enum.length === 1) return `${key}=${canonical(property.enum[0])}`;
  }
  return undefined;
}

function branchName(root: Schema, branch: unknown, index: number): string {
  const key = nameKey(root, branch);
  return key ? `${index} (${key.slice(key.indexOf(":") + 1)})` : String(index);
}

function compareAllOf(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const before = Array.isArray(a.allOf) ? a.allOf : undefined;
  const after = Array.isArray(b.allOf) ? b.allOf : undefined;
  if (!before && !after) return;
  if (before && after && before.length === after.length) {
    for (const [index, part] of before.entries())
      ctx.compare(part, after[index], { path: at.path, oldPointer: `${at.oldPointer}/allOf/${index}`, newPointer: `${at.newPointer}/allOf/${index}` });
    return;
  }
  report(ctx, at, {
    keyword: "allOf",
    inOld: !after,
    toolTeams: "possibly",
    models: "possibly",
    message: `${where(at.path)}: allOf now combines ${after?.length ?? 0} schemas instead of ${before?.length ?? 0}`,
  });
}
