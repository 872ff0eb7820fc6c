// A tool whose validator and tables load on its first call. The package index lists every tool
// (name, description, reference kinds, HTTP binding; input schemas as JSON data beside it)
// without importing any tool module, so a process that binds 1,221 tools is ready in the time
// it takes to read that list, and pays for a tool's code only when the model calls it.
import type { CallContext, CheckResult, DescribedTool, GuardedTool, ImplementOptions, Implementation, RawArguments, ToolDefinition } from "../contract/api.ts";
import { requireResolvers } from "../resolve/bind-references.ts";
import { checkBinding } from "./binding-checks.ts";
import type { Outcome } from "../contract/outcome.ts";
import { readFileSync } from "node:fs";
import type { HttpBinding, InputSchema } from "../contract/tool-spec.ts";

/** What the index knows of a tool without loading it. */
export interface CatalogEntry {
  readonly name: string;
  /** Reference kinds needing a resolver: checked when the tool is bound, as a loaded tool does. */
  readonly kinds: readonly string[];
  /** The rest of what the model and the dispatcher see, read on first use (see `catalogData`). */
  readonly data: () => CatalogData;
}

/** A tool's description, HTTP binding and input schema, as catalog.json holds them. */
export interface CatalogData {
  readonly description: string;
  readonly http?: HttpBinding;
  readonly inputSchema: InputSchema;
}

/**
 * The data of a package's tools, kept in a JSON file beside its catalog (one array, in catalog
 * order) rather than in code: at start-up none of it is compiled, built or even scanned (GitHub's
 * is 2.4 MB); the file is read and parsed once, on the first read of any tool's description,
 * input schema or HTTP binding.
 */
export function catalogData(url: URL): (index: number) => () => CatalogData {
  let all: readonly CatalogData[] | undefined;
  return (index) => () => {
    all ??= JSON.parse(readFileSync(url, "utf8")) as CatalogData[];
    const data = all[index];
    if (data === undefined) throw new Error(`toolguard: ${url.pathname} has no entry ${index}; regenerate the package`);
    return data;
  };
}

/** A tool definition that imports its module (`load`) the first time a bound tool is used. */
export function lazyTool<Args, Resolved, Kinds extends string>(
  entry: CatalogEntry,
  load: () => Promise<ToolDefinition<Args, Resolved, Kinds>>,
): ToolDefinition<Args, Resolved, Kinds> {
  let loading: Promise<ToolDefinition<Args, Resolved, Kinds>> | undefined;
  const definition = (): Promise<ToolDefinition<Args, Resolved, Kinds>> => (loading ??= load());
  return {
    name: entry.name,
    get description(): string {
      return entry.data().description;
    },
    get http(): HttpBinding | undefined {
      return entry.data().http;
    },
    get inputSchema(): InputSchema {
      return entry.data().inputSchema;
    },
    implement<Result>(
      implementation: Implementation<Resolved, Result>,
      ...rest: [options?: ImplementOptions<Kinds, Args, Resolved>]
    ): DescribedTool<Result, Resolved> {
      const options = rest[0];
      // Refused now, as a loaded tool refuses them, not at the first call.
      checkBinding(entry.name, implementation, options);
      requireResolvers(entry.name, entry.kinds, options?.resolvers);
      return new LazyGuardedTool<Result, Resolved>(entry, async () => {
        const loaded = await definition();
        const bind = loaded.implement as unknown as (
          impl: typeof implementation,
          options?: ImplementOptions<Kinds, Args, Resolved>,
        ) => GuardedTool<Result, Resolved>;
        return bind(implementation, options);
      });
    },
  } as ToolDefinition<Args, Resolved, Kinds>;
}

/** A bound tool whose guard is built on first use; every call after that goes straight to it. */
class LazyGuardedTool<Result, Args> implements DescribedTool<Result, Args> {
  readonly name: string;
  readonly #entry: CatalogEntry;
  readonly #bind: () => Promise<GuardedTool<Result, Args>>;
  #bound: GuardedTool<Result, Args> | undefined;
  #binding: Promise<GuardedTool<Result, Args>> | undefined;

  constructor(entry: CatalogEntry, bind: () => Promise<GuardedTool<Result, Args>>) {
    this.name = entry.name;
    this.#entry = entry;
    this.#bind = bind;
  }

  get description(): string {
    return this.#entry.data().description;
  }

  get inputSchema(): InputSchema {
    return this.#entry.data().inputSchema;
  }

  call(raw: RawArguments, context: CallContext): Promise<Outcome<Result>> {
    const bound = this.#bound;
    if (bound) return bound.call(raw, context);
    return this.#load().then((loaded) => loaded.call(raw, context));
  }

  check(raw: RawArguments, context: CallContext): CheckResult<Args> {
    const bound = this.#bound;
    if (bound) return bound.check(raw, context);
    throw new Error(`toolguard: ${this.name} is loaded on first use; await its ready() (or one call) before check()`);
  }

  ready(): Promise<void> {
    return this.#load().then(() => undefined);
  }

  #load(): Promise<GuardedTool<Result, Args>> {
    return (this.#binding ??= this.#bind().then((bound) => (this.#bound = bound)));
  }
}
