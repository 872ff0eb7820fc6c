// Typed generation errors. Every one names the file, the JSON Pointer inside it and the fix,
// because the person reading it is fixing a schema, not debugging toolguard.

export interface ErrorLocation {
  /** The file, relative to the schema root where possible. */
  readonly file: string;
  /** JSON Pointer inside the file; `""` for the whole document. */
  readonly pointer: string;
}

/** A problem in the user's input (schemas, documents, config): fixable by the user. */
export class InputError extends Error {
  readonly location: ErrorLocation;
  readonly fix: string;
  /**
   * toolguard cannot enforce the schema as written (a pattern its linear-time engine cannot
   * match or compile), and weakening it is no option: the tool is skipped with this reason in a
   * tool file too, as in a vendor's document, since a tool list taken from a published server is
   * no file the team edits. `--strict` makes it an error.
   */
  readonly skipsTool: boolean;

  constructor(location: ErrorLocation, problem: string, fix: string, options: { readonly skipsTool?: boolean } = {}) {
    super(problem);
    this.name = "InputError";
    this.location = location;
    this.fix = fix;
    this.skipsTool = options.skipsTool === true;
  }

  /** One block of text for a terminal: where, what, how to fix. */
  format(): string {
    const where = this.location.pointer ? `${this.location.file}#${this.location.pointer}` : this.location.file;
    return `${where}: ${this.message}\n  fix: ${this.fix}`;
  }
}

/** A problem with how toolguard was invoked (flags, config file). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Several input errors at once, so one run reports everything that needs fixing. */
export class InputErrors extends Error {
  readonly errors: readonly InputError[];

  constructor(errors: readonly InputError[]) {
    super(`${errors.length} problem${errors.length === 1 ? "" : "s"} in the tool schemas`);
    this.name = "InputErrors";
    this.errors = errors;
  }

  /**
   * Every error, led by one line per cause shared by several (a vendor's folder read the wrong
   * way gives thousands of one error), so the cause is read before the list.
   */
  format(): string {
    const byCause = new Map<string, InputError[]>();
    for (const error of this.errors) byCause.set(error.message, [...(byCause.get(error.message) ?? []), error]);
    const summary = [...byCause.values()]
      .filter((group) => group.length >= SUMMARY_AT)
      .sort((a, b) => b.length - a.length)
      .map((group) => {
        const files = [...new Set(group.map((error) => error.location.file))];
        return `${group.length} problems share one cause: ${group[0]!.message} (in ${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more files` : ""})\n  fix: ${group[0]!.fix}`;
      });
    return [...summary, ...this.errors.map((error) => error.format())].join("\n");
  }
}

/** How many errors with one message get a summary line. */
const SUMMARY_AT = 3;

/** An error as plain data, so that it crosses a thread boundary with its class and location. */
export type EncodedError =
  | { readonly kind: "input"; readonly location: ErrorLocation; readonly message: string; readonly fix: string; readonly skipsTool: boolean }
  | { readonly kind: "inputs"; readonly errors: readonly EncodedError[] }
  | { readonly kind: "other"; readonly name: string; readonly message: string; readonly stack: string | undefined };

export function encodeError(error: unknown): EncodedError {
  if (error instanceof InputError)
    return {
      kind: "input",
      location: { file: error.location.file, pointer: error.location.pointer },
      message: error.message,
      fix: error.fix,
      skipsTool: error.skipsTool,
    };
  if (error instanceof InputErrors) return { kind: "inputs", errors: error.errors.map(encodeError) };
  if (error instanceof Error) return { kind: "other", name: error.name, message: error.message, stack: error.stack };
  return { kind: "other", name: "Error", message: String(error), stack: undefined };
}

export function decodeError(encoded: EncodedError): Error {
  if (encoded.kind === "input") return new InputError(encoded.location, encoded.message, encoded.fix, { skipsTool: encoded.skipsTool });
  if (encoded.kind === "inputs") return new InputErrors(encoded.errors.map(decodeError) as InputError[]);
  const error = new Error(encoded.message);
  error.name = encoded.name;
  if (encoded.stack !== undefined) error.stack = encoded.stack;
  return error;
}
