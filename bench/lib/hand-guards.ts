// Hand-written type guards for the four bodies of figure 1: what a careful engineer writes
// instead of a validator, checking the same fields and bounds as the schema (no error list).
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);
const isNum = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const optional = (value: unknown, check: (v: unknown) => boolean): boolean => value === undefined || check(value);
const onlyKeys = (value: Json, allowed: ReadonlySet<string>): boolean => {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
};
const isDate = (value: unknown): boolean => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

const INVOICE_KEYS = new Set(["amount", "currency", "customer_ref", "due_date", "line_items", "memo"]);
const LINE_KEYS = new Set(["sku", "quantity", "unit_price"]);
const SKU = /^[A-Z0-9-]{3,32}$/u;
const CURRENCIES = new Set(["USD", "EUR", "GBP"]);

export function isInvoice(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, INVOICE_KEYS)) return false;
  if (!isNum(v.amount) || v.amount < 0) return false;
  if (typeof v.currency !== "string" || !CURRENCIES.has(v.currency)) return false;
  const ref = v.customer_ref;
  if (typeof ref !== "string" || [...ref].length < 2 || [...ref].length > 200) return false;
  if (!optional(v.due_date, isDate)) return false;
  if (!optional(v.memo, (m) => typeof m === "string" && [...m].length <= 500)) return false;
  const items = v.line_items;
  if (!Array.isArray(items) || items.length < 1 || items.length > 100) return false;
  for (const item of items) {
    if (!isObject(item) || !onlyKeys(item, LINE_KEYS)) return false;
    if (typeof item.sku !== "string" || !SKU.test(item.sku)) return false;
    if (!isInt(item.quantity) || item.quantity < 1 || item.quantity > 10000) return false;
    if (!isNum(item.unit_price) || item.unit_price < 0) return false;
  }
  return true;
}

const ROUTE_KEYS = new Set(["owner", "repo", "body"]);
const route = (v: unknown): v is Json & { body: Json } =>
  isObject(v) && onlyKeys(v, ROUTE_KEYS) && typeof v.owner === "string" && typeof v.repo === "string" && isObject(v.body);
const strOrNull = (x: unknown): boolean => typeof x === "string" || x === null;
const strOrInt = (x: unknown): boolean => typeof x === "string" || isInt(x);
const FIELD_VALUE_KEYS = new Set(["field_id", "value"]);

export function isIssueCreate(v: unknown): boolean {
  if (!route(v)) return false;
  const b = v.body;
  if (!strOrInt(b.title)) return false;
  if (!optional(b.body, (x) => typeof x === "string") || !optional(b.assignee, strOrNull) || !optional(b.type, strOrNull)) return false;
  if (!optional(b.milestone, (x) => x === null || strOrInt(x))) return false;
  if (
    !optional(
      b.labels,
      (x) =>
        Array.isArray(x) &&
        x.every(
          (l) =>
            typeof l === "string" || (isObject(l) && optional(l.id, isInt) && optional(l.name, (n) => typeof n === "string") && optional(l.color, strOrNull)),
        ),
    )
  )
    return false;
  if (!optional(b.assignees, (x) => Array.isArray(x) && x.every((a) => typeof a === "string"))) return false;
  return optional(
    b.issue_field_values,
    (x) =>
      Array.isArray(x) &&
      x.every(
        (f) =>
          isObject(f) &&
          onlyKeys(f, FIELD_VALUE_KEYS) &&
          isInt(f.field_id) &&
          (typeof f.value === "string" || isNum(f.value) || (Array.isArray(f.value) && f.value.every((s) => typeof s === "string"))),
      ),
  );
}

export function isPullCreate(v: unknown): boolean {
  if (!route(v)) return false;
  const b = v.body;
  if (typeof b.head !== "string" || typeof b.base !== "string") return false;
  for (const key of ["title", "head_repo", "body"]) if (!optional(b[key], (x) => typeof x === "string")) return false;
  for (const key of ["maintainer_can_modify", "draft"]) if (!optional(b[key], (x) => typeof x === "boolean")) return false;
  return optional(b.issue, (x) => isInt(x) && Number.isSafeInteger(x));
}

const REPO_STRINGS = ["homepage", "gitignore_template", "license_template"];
const REPO_FLAGS = [
  "private",
  "has_issues",
  "has_projects",
  "has_wiki",
  "has_discussions",
  "auto_init",
  "allow_squash_merge",
  "allow_merge_commit",
  "allow_rebase_merge",
  "allow_auto_merge",
  "delete_branch_on_merge",
  "has_downloads",
  "is_template",
];
const REPO_ENUMS: Record<string, ReadonlySet<string>> = {
  squash_merge_commit_title: new Set(["PR_TITLE", "COMMIT_OR_PR_TITLE"]),
  squash_merge_commit_message: new Set(["PR_BODY", "COMMIT_MESSAGES", "BLANK"]),
  merge_commit_title: new Set(["PR_TITLE", "MERGE_MESSAGE"]),
  merge_commit_message: new Set(["PR_BODY", "PR_TITLE", "BLANK"]),
};
const BODY_ONLY = new Set(["body"]);

export function isRepoCreate(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, BODY_ONLY) || !isObject(v.body)) return false;
  const b = v.body;
  if (typeof b.name !== "string") return false;
  for (const key of REPO_STRINGS) if (!optional(b[key], (x) => typeof x === "string")) return false;
  for (const key of REPO_FLAGS) if (!optional(b[key], (x) => typeof x === "boolean")) return false;
  for (const [key, allowed] of Object.entries(REPO_ENUMS)) if (!optional(b[key], (x) => typeof x === "string" && allowed.has(x))) return false;
  return optional(b.team_id, isInt);
}
