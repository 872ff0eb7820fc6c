// What `toolguard diff` reports: each change to a tool, with what it means on two axes, for
// the tool teams whose implementation receives the arguments, and for the models that send
// them. The classification is the point of the command; the renderers only lay it out.

/**
 * How a change bears on one audience. `possibly` is said whenever the comparison cannot
 * decide (a changed pattern, a reshaped union, a conditional): a reviewer should look, and a
 * CI gate treats it like `breaking`.
 */
export type Impact = "breaking" | "possibly" | "none";

/** What sort of thing changed: wording only, the schema's meaning, or the tool itself. */
export type ChangeKind = "annotation" | "schema" | "reference" | "tool";

export interface Change {
  /** JSON Pointer into the arguments (`*` stands for any array item, `{other}` for unlisted keys). */
  readonly path: string;
  /** JSON Pointer of the changed keyword in the new input schema (the old one when it was removed). */
  readonly schemaPointer: string;
  readonly keyword: string;
  readonly kind: ChangeKind;
  /** Whether implementations written against the old argument types still compile and hold. */
  readonly toolTeams: Impact;
  /** Whether calls that were valid stay valid. */
  readonly models: Impact;
  /** One sentence a reviewer can act on; what the model may now send when nothing breaks. */
  readonly message: string;
}

export type ToolStatus = "added" | "removed" | "renamed" | "changed" | "unchanged";

export interface ToolDiff {
  /** The tool's name on the new side (the old one for a removed tool). */
  readonly name: string;
  /** The old name, for a renamed tool. */
  readonly previousName?: string;
  /**
   * What a reader knows the tool by when its name is not enough: an OpenAPI operation's method and
   * path (a name cut to 64 characters ends in a hash, `..._0afc5f10`).
   */
  readonly title?: string;
  readonly status: ToolStatus;
  readonly changes: readonly Change[];
  readonly toolTeams: Impact;
  readonly models: Impact;
}

const RANK: Readonly<Record<Impact, number>> = { none: 0, possibly: 1, breaking: 2 };

/** The stronger of two impacts. */
export function worst(a: Impact, b: Impact): Impact {
  return RANK[a] >= RANK[b] ? a : b;
}

/** The strongest impact of a list of changes on one audience. */
export function worstOf(changes: readonly Change[], audience: "toolTeams" | "models"): Impact {
  return changes.reduce<Impact>((acc, change) => worst(acc, change[audience]), "none");
}

/** A short label for a pair of impacts, as the summary table and the terminal show it. */
export function classLabel(toolTeams: Impact, models: Impact): string {
  if (toolTeams === "none" && models === "none") return "neither";
  const parts: string[] = [];
  if (toolTeams !== "none") parts.push(`${toolTeams === "possibly" ? "possibly breaking" : "breaking"} for tool teams`);
  if (models !== "none") parts.push(`${models === "possibly" ? "possibly breaking" : "breaking"} for models`);
  return parts.join(", ");
}

/** A change's message without the leading "<path>: " that renderers already show in their own column. */
export function messageBesidePath(change: Change): string {
  const prefix = `${change.path}: `;
  return change.path !== "" && change.message.startsWith(prefix) ? change.message.slice(prefix.length) : change.message;
}
