// Objects: fields added, removed, renamed, made required or optional, and the rule for fields
// not listed (additionalProperties). Fields are what both audiences feel most: a removed field
// breaks the implementation's type; a new required one breaks every call that lacks it.
import { pointerToken } from "../json-pointer.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type At, below, type CompareContext, report, where } from "./compare-context.ts";
import { canonical, deref } from "./schema-view.ts";

/** Fields (each compared below its name), `required`, and the rule for unlisted fields of one pair of schemas. */
export function compareObjects(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const oldProps = isSchemaObject(a.properties) ? a.properties : {};
  const newProps = isSchemaObject(b.properties) ? b.properties : {};
  const oldRequired = requiredOf(a);
  const newRequired = requiredOf(b);
  const closed = rest(b) === "closed" || rest(b, "unevaluatedProperties") === "closed";
  // Unlisted fields that must match a schema: whether a removed field's old values pass it is not decided here.
  const constrained = !closed && rest(b) === "schema";
  const removed = Object.keys(oldProps).filter((key) => !(key in newProps));
  const added = Object.keys(newProps).filter((key) => !(key in oldProps));
  const renamed = matchRenames(ctx, oldProps, newProps, removed, added);

  for (const key of Object.keys(newProps)) {
    if (key in oldProps) {
      ctx.compare(oldProps[key], newProps[key], below(at, pointerToken(key), `properties/${pointerToken(key)}`));
      compareRequired(ctx, at, key, oldRequired.has(key), newRequired.has(key), b);
      continue;
    }
    const from = renamed.get(key);
    if (from !== undefined) {
      report(ctx, at, {
        path: fieldName(at, key),
        keyword: `properties/${pointerToken(key)}`,
        toolTeams: "breaking",
        models: newRequired.has(key) || closed ? "breaking" : "none",
        message: `${fieldName(at, from)} renamed to ${key} (same schema): code reading ${from} must change${newRequired.has(key) ? "; calls without it now fail" : closed ? "; calls sending the old name now fail" : ""}`,
      });
      continue;
    }
    if (newRequired.has(key)) {
      report(ctx, at, {
        path: fieldName(at, key),
        keyword: `properties/${pointerToken(key)}`,
        toolTeams: "none",
        models: "breaking",
        message: `new required field ${fieldName(at, key)}: every call without it now fails`,
      });
    } else {
      report(ctx, at, {
        path: fieldName(at, key),
        keyword: `properties/${pointerToken(key)}`,
        toolTeams: "none",
        models: "none",
        message: `new optional field ${fieldName(at, key)}: the model may now send it`,
      });
    }
  }
  const renamedFrom = new Set(renamed.values());
  for (const key of removed) {
    if (renamedFrom.has(key)) continue;
    report(ctx, at, {
      path: fieldName(at, key),
      keyword: `properties/${pointerToken(key)}`,
      inOld: true,
      toolTeams: "breaking",
      models: closed ? "breaking" : constrained ? "possibly" : "none",
      message: `field ${fieldName(at, key)} removed from the argument type${closed ? "; calls that send it now fail (unlisted fields are refused)" : constrained ? "; calls that send it must now match the schema for unlisted fields" : "; calls that send it still pass, as an unlisted field"}`,
    });
    // Still required though no longer described: calls without it fail as before, or now.
    if (newRequired.has(key)) compareRequired(ctx, at, key, oldRequired.has(key), true);
  }
  // `required` naming a field that no side lists under `properties`.
  for (const key of new Set([...oldRequired, ...newRequired])) {
    if (key in oldProps || key in newProps) continue;
    compareRequired(ctx, at, key, oldRequired.has(key), newRequired.has(key), b);
  }
  if (Object.keys(oldProps).length + Object.keys(newProps).length > 0 || "additionalProperties" in a || "additionalProperties" in b) {
    compareRest(ctx, a, b, at, "additionalProperties");
  }
  if ("unevaluatedProperties" in a || "unevaluatedProperties" in b) compareRest(ctx, a, b, at, "unevaluatedProperties");
  for (const keyword of ["patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies"]) {
    if (canonical(a[keyword]) === canonical(b[keyword])) continue;
    report(ctx, at, {
      keyword,
      inOld: !(keyword in b),
      toolTeams: keyword === "patternProperties" ? "possibly" : "none",
      models: "possibly",
      message: `${where(at.path)}: ${keyword} changed; objects that passed may now fail`,
    });
  }
}

function fieldName(at: At, key: string): string {
  return `${at.path}/${pointerToken(key)}`;
}

function requiredOf(schema: Schema): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
}

function compareRequired(ctx: CompareContext, at: At, key: string, before: boolean, after: boolean, b?: Schema): void {
  if (before === after) return;
  const name = fieldName(at, key);
  if (after) {
    report(ctx, at, {
      path: name,
      keyword: "required",
      toolTeams: "possibly",
      models: "breaking",
      message: `${name} is now required: calls without it now fail (its type loses the "?": code or tests that build arguments without it stop compiling)`,
    });
  } else {
    // Taken out of `required` and into the branches of a union: "now optional" alone misleads
    // (issue 30: GitHub moved a required `id` into a new oneOf).
    const moved = b === undefined ? undefined : requiringBranches(ctx.newRoot, b, key);
    if (moved && moved.requiring.length === moved.total) {
      report(ctx, at, {
        path: name,
        keyword: "required",
        inOld: true,
        toolTeams: "possibly",
        models: "none",
        message: `${name} is no longer required by the object itself but by every one of the ${moved.total} branches of its ${moved.keyword}: calls without it still fail (its type may now carry it per branch)`,
      });
      return;
    }
    report(ctx, at, {
      path: name,
      keyword: "required",
      inOld: true,
      toolTeams: "breaking",
      models: "none",
      message: moved
        ? `${name} is no longer required by the object itself; ${moved.requiring.length} of the ${moved.total} branches of its ${moved.keyword} require it (${moved.requiring.join(", ")}): the model may leave it out only with one of the others, and the implementation receives it as possibly undefined`
        : `${name} is now optional: the model may now leave it out, and the implementation receives it as possibly undefined`,
    });
  }
}

/**
 * Fields that disappeared under one name and appeared under another with the same schema:
 * reported as one rename, not as a removal and an addition.
 */
function matchRenames(ctx: CompareContext, oldProps: Schema, newProps: Schema, removed: readonly string[], added: readonly string[]): Map<string, string> {
  const renamed = new Map<string, string>();
  const taken = new Set<string>();
  for (const to of added) {
    const target = canonical(deref(ctx.newRoot, newProps[to], "").node);
    const from = removed.find((key) => !taken.has(key) && canonical(deref(ctx.oldRoot, oldProps[key], "").node) === target);
    if (from === undefined) continue;
    renamed.set(to, from);
    taken.add(from);
  }
  return renamed;
}

type Rest = "open" | "closed" | "schema";

function rest(schema: Schema, keyword = "additionalProperties"): Rest {
  const value = schema[keyword];
  if (value === undefined || value === true) return "open";
  if (value === false) return "closed";
  return isSchemaObject(value) && Object.keys(value).length === 0 ? "open" : "schema";
}

/** The rule for fields not listed under `properties`. */
function compareRest(ctx: CompareContext, a: Schema, b: Schema, at: At, keyword: string): void {
  const before = rest(a, keyword);
  const after = rest(b, keyword);
  if (before === "schema" && after === "schema") {
    ctx.compare(a[keyword], b[keyword], below(at, "{other}", keyword));
    return;
  }
  if (before === after) return;
  if (after === "closed") {
    report(ctx, at, {
      keyword,
      toolTeams: before === "open" ? "possibly" : "none",
      models: "breaking",
      message: `${where(at.path)}: unlisted fields are now refused (${keyword}: false); calls that sent any now fail`,
    });
  } else if (after === "schema") {
    report(ctx, at, {
      keyword,
      toolTeams: "possibly",
      models: before === "open" ? "breaking" : "none",
      message:
        before === "open"
          ? `${where(at.path)}: unlisted fields must now match a schema; calls that sent others may fail`
          : `${where(at.path)}: the model may now send unlisted fields matching ${keyword}`,
    });
  } else {
    report(ctx, at, {
      keyword,
      inOld: true,
      toolTeams: before === "closed" ? "none" : "possibly",
      models: "none",
      message: `${where(at.path)}: the model may now send fields not listed`,
    });
  }
}

/** The branches of `schema`'s `oneOf`/`anyOf` (read in `root`) whose own `required` names `key`; undefined when none does. */
function requiringBranches(root: Schema, schema: Schema, key: string): { keyword: string; requiring: number[]; total: number } | undefined {
  for (const keyword of ["oneOf", "anyOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const requiring = branches.flatMap((branch, index) => {
      const node = deref(root, branch, "").node;
      return isSchemaObject(node) && requiredOf(node).has(key) ? [index] : [];
    });
    if (requiring.length > 0) return { keyword, requiring, total: branches.length };
  }
  return undefined;
}
