// The arguments of figures 1 and 2, as a model would send them: one valid body per tool, and an
// invalid invoice with several errors at once.
export const VALID: Readonly<Record<string, unknown>> = {
  create_invoice: {
    amount: 1299.5,
    currency: "EUR",
    customer_ref: "Acme BV",
    due_date: "2026-01-31",
    line_items: [
      { sku: "WIDGET-7", quantity: 2, unit_price: 499.75 },
      { sku: "GADGET-22", quantity: 3, unit_price: 100 },
    ],
    memo: "Thank you for your business.",
  },
  issues_create: {
    owner: "octocat",
    repo: "hello-world",
    body: { title: "Found a bug", body: "I'm having a problem with this.", assignees: ["octocat"], milestone: 1, labels: ["bug", { name: "triage" }] },
  },
  pulls_create: {
    owner: "octocat",
    repo: "hello-world",
    body: { title: "Amazing new feature", body: "Please pull these awesome changes in!", head: "octocat:new-feature", base: "main", draft: false },
  },
  "repos_create-for-authenticated-user": {
    body: { name: "hello-world", homepage: "https://github.com", private: false, has_issues: true, auto_init: true, squash_merge_commit_title: "PR_TITLE" },
  },
  // GitHub's own example for this operation, with three more rules: one more with parameters.
  "repos_create-org-ruleset": {
    org: "octo-org",
    body: {
      name: "super cool ruleset",
      target: "branch",
      enforcement: "active",
      bypass_actors: [{ actor_id: 234, actor_type: "Team", bypass_mode: "always" }],
      conditions: {
        ref_name: { include: ["refs/heads/main", "refs/heads/master"], exclude: ["refs/heads/dev*"] },
        repository_name: { include: ["important_repository", "another_important_repository"], exclude: ["unimportant_repository"], protected: true },
      },
      rules: [
        { type: "commit_author_email_pattern", parameters: { operator: "contains", pattern: "github" } },
        { type: "deletion" },
        { type: "non_fast_forward" },
        {
          type: "pull_request",
          parameters: {
            dismiss_stale_reviews_on_push: true,
            require_code_owner_review: true,
            require_last_push_approval: false,
            required_approving_review_count: 2,
            required_review_thread_resolution: true,
          },
        },
      ],
    },
  },
};

/** Five errors: a wrong-case enum, a negative amount, a missing field, an unknown field, a bad SKU. */
export const INVALID_INVOICE = {
  amount: -5,
  currency: "eur",
  due_date: "31/01/2026",
  line_items: [{ sku: "widget 7", quantity: 0, unit_price: 10 }],
  discount: 10,
};

/** One mistake, the commonest kind: a lower-case currency (issue 16: one-mistake envelope <= 3x ajv's list). */
export const ONE_MISTAKE_INVOICE = { ...(VALID["create_invoice"] as Record<string, unknown>), currency: "eur" };

/**
 * One mistake in each of GitHub's small bodies (issue 25: the envelope costs a fixed few
 * microseconds, so small bodies show it most): a draft flag sent as a string, a milestone sent as
 * an object, a merge-commit title outside its enum.
 */
const withBody = (name: string, change: Record<string, unknown>): Record<string, unknown> => {
  const valid = VALID[name] as { body: Record<string, unknown> };
  return { ...valid, body: { ...valid.body, ...change } };
};
export const ONE_MISTAKE_GITHUB: Readonly<Record<string, unknown>> = {
  issues_create: withBody("issues_create", { milestone: { number: 1 } }),
  pulls_create: withBody("pulls_create", { draft: "no" }),
  "repos_create-for-authenticated-user": withBody("repos_create-for-authenticated-user", { squash_merge_commit_title: "pr_title" }),
};

/**
 * Three mistakes in GitHub's ruleset body, two of them inside its union of 21 rule kinds: a
 * wrong-case enforcement, a rule kind that does not exist, a pull_request rule missing its
 * required parameters. ajv reports every rule kind's failure for each bad rule.
 */
export const INVALID_RULESET = {
  org: "octo-org",
  body: {
    name: "super cool ruleset",
    enforcement: "Active",
    rules: [{ type: "deletion" }, { type: "delete" }, { type: "pull_request", parameters: { required_approving_review_count: 1 } }],
  },
};

/** Where each valid body holds free text (a memo, a title, a name) that a variant may change. */
const FREE_TEXT: Readonly<Record<string, readonly string[]>> = {
  create_invoice: ["memo"],
  issues_create: ["body", "title"],
  pulls_create: ["body", "title"],
  "repos_create-for-authenticated-user": ["body", "name"],
  "repos_create-org-ruleset": ["body", "name"],
};

/**
 * `count` distinct texts of the tool's valid body, each with a number after its free text. Calls
 * in production never repeat one raw text, so neither may the benchmark: a repeated text would
 * let any cache keyed by the last text (the ledger's secret-name scan has one) answer for free.
 */
export function validTexts(name: string, count: number): string[] {
  return distinctTexts(name, VALID[name], count);
}

/**
 * `count` distinct texts of `body` (a body of tool `name`, valid or not), each with a number after
 * a text field: by default the free text `FREE_TEXT` names for the tool, else the field at `at`
 * (a body without that free text). The same mistakes, different values: figure 2 sends these, as
 * figure 1 sends `validTexts`, so no per-text cache answers a repeated text.
 */
export function distinctTexts(name: string, body: unknown, count: number, at: readonly string[] | undefined = FREE_TEXT[name]): string[] {
  return Array.from({ length: count }, (_, index) => distinctText(name, body, index, at));
}

/** The `index`th of `distinctTexts`: `body` as text, with `index` after the text field at `at`. */
export function distinctText(name: string, body: unknown, index: number, at: readonly string[] | undefined = FREE_TEXT[name]): string {
  const path = at;
  if (path === undefined) throw new Error(`bodies: no free-text field named for ${name}`);
  const copy = structuredClone(body) as Record<string, unknown>;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const field = path.at(-1) as string;
  if (typeof holder[field] !== "string") throw new Error(`bodies: ${name}'s ${path.join(".")} holds no text to vary`);
  holder[field] = `${String(holder[field])} ${index}`;
  return JSON.stringify(copy);
}
