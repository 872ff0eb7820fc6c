// One lookup through the application's resolver for a reference kind: synchronous when the
// resolver is, bounded by a timeout when it returns a promise, with a signal made only if read;
// its answer checked, since candidate ids and labels reach the model. Any failure is the
// dependency's (ReferenceResolverError), never the model's.
import type { ResolverMap } from "../contract/api.ts";
import type { Candidate } from "../contract/resolution.ts";

/** How long a resolver may take before it counts as failed. */
export const DEFAULT_RESOLVER_TIMEOUT_MS = 10_000;

/** A resolver threw, timed out or answered nonsense: a dependency failure, not the model's. */
export class ReferenceResolverError extends Error {
  readonly tool: string;
  readonly path: string;
  readonly kind: string;

  /** `field`: the tool, the reference field's path and its kind; `problem`: what went wrong, in words. */
  constructor(field: { readonly tool: string; readonly path: string; readonly kind: string }, problem: string, cause?: unknown) {
    const { tool, path, kind } = field;
    super(`toolguard: the ${kind} resolver of ${tool} failed at ${path}: ${problem}`, cause === undefined ? undefined : { cause });
    this.name = "ReferenceResolverError";
    this.tool = tool;
    this.path = path;
    this.kind = kind;
  }
}

export interface ResolveContext {
  readonly tool: string;
  readonly resolvers: ResolverMap<string>;
  /** Candidates offered earlier in this chain, by field: the field now accepts only their ids. */
  readonly offers: ReadonlyMap<string, readonly Candidate[]>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export function lookUp(text: string, path: string, kind: string, context: ResolveContext): readonly Candidate[] | Promise<readonly Candidate[]> {
  const resolver = context.resolvers[kind];
  if (typeof resolver !== "function") throw new ReferenceResolverError({ tool: context.tool, path, kind }, "no resolver was given for this kind");
  // A resolver that answers synchronously needs no timer and, unless it reads `signal`, no
  // AbortController either: the signal is made on first read (creating one per lookup, plus
  // AbortSignal.any, cost as much as the rest of resolving). One timer both aborts the signal
  // and rejects the lookup.
  const call = new ResolverCall(context.tool, path, context.signal);
  let pending: unknown;
  try {
    pending = resolver(text, call);
    if (!isThenable(pending)) return candidatesOf(pending, context, path, kind);
  } catch (error) {
    throw failure(error, context, path, kind);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      call.expire(new DOMException(`no answer within ${context.timeoutMs} ms`, "TimeoutError"));
      reject(new ReferenceResolverError({ tool: context.tool, path, kind }, `no answer within ${context.timeoutMs} ms`));
    }, context.timeoutMs);
  });
  return Promise.race([pending, expired]).then(
    (answer) => {
      clearTimeout(timer);
      return candidatesOf(answer, context, path, kind);
    },
    (error: unknown) => {
      clearTimeout(timer);
      throw failure(error, context, path, kind);
    },
  );
}

/** What the resolver threw or rejected with, as a dependency failure (made only when one happens). */
function failure(error: unknown, context: ResolveContext, path: string, kind: string): ReferenceResolverError {
  return error instanceof ReferenceResolverError
    ? error
    : new ReferenceResolverError({ tool: context.tool, path, kind }, error instanceof Error ? error.message : String(error), error);
}

/**
 * What a resolver receives: the tool, the field, and a signal that aborts when the caller's
 * signal does or when the resolver runs out of time. The signal exists once it is read; if the
 * time ran out before that, it is born aborted.
 */
class ResolverCall {
  readonly tool: string;
  readonly path: string;
  readonly #outer: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #expired: unknown;

  constructor(tool: string, path: string, outer: AbortSignal | undefined) {
    this.tool = tool;
    this.path = path;
    this.#outer = outer;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      this.#controller = new AbortController();
      if (this.#expired !== undefined) this.#controller.abort(this.#expired);
      this.#signal = this.#outer ? AbortSignal.any([this.#outer, this.#controller.signal]) : this.#controller.signal;
    }
    return this.#signal;
  }

  expire(reason: unknown): void {
    this.#expired = reason;
    this.#controller?.abort(reason);
  }
}

/** A resolver's answer as distinct candidates, or a `ReferenceResolverError` when it is not a list of them. */
function candidatesOf(answer: unknown, context: ResolveContext, path: string, kind: string): readonly Candidate[] {
  if (!Array.isArray(answer) || !(answer.length === 1 ? isCandidate(answer[0]) : answer.every(isCandidate))) {
    throw new ReferenceResolverError({ tool: context.tool, path, kind }, "the resolver must return an array of {id: string, label: string}");
  }
  // One match resolves the field: its id is checked (the implementation and the ledger get it),
  // its label is kept as given, since a lone candidate is never shown to the model.
  if (answer.length === 1) {
    const only = answer[0] as Candidate;
    checkId(only.id, context, path, kind);
    return [{ id: only.id, label: only.label }];
  }
  // The same identifier twice is one candidate, not an ambiguity.
  const unique = new Map<string, Candidate>();
  for (const candidate of answer) {
    if (unique.has(candidate.id)) continue;
    checkId(candidate.id, context, path, kind);
    unique.set(candidate.id, { id: candidate.id, label: printableLabel(candidate.label) });
  }
  return [...unique.values()];
}

/**
 * The model must copy an id back exactly, so it is never altered: one it could not copy, or that
 * could carry text to the model, is the resolver's defect.
 */
function checkId(id: string, context: ResolveContext, path: string, kind: string): void {
  if (id.length > MAX_ID_LENGTH || UNPRINTABLE.test(id)) {
    throw new ReferenceResolverError(
      { tool: context.tool, path, kind },
      `candidate ids must be at most ${MAX_ID_LENGTH} printable characters; got ${JSON.stringify(id.slice(0, 40))}${id.length > 40 ? "…" : ""}`,
    );
  }
}

/** Longest candidate id accepted from a resolver. */
export const MAX_ID_LENGTH = 200;
/** Longest label shown to the model; longer ones are cut with an ellipsis. */
export const MAX_LABEL_LENGTH = 120;
/** Control characters, line and paragraph separators, bidirectional overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNPRINTABLE_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * A label as the model sees it: a record's name is data from the application's store, which
 * anyone may have written; it is shown on one line, without control characters, and short.
 */
function printableLabel(label: string): string {
  const flat = label.length > 4 * MAX_LABEL_LENGTH ? label.slice(0, 4 * MAX_LABEL_LENGTH) : label;
  const clean = flat.replace(UNPRINTABLE_ALL, " ").trim();
  return clean.length > MAX_LABEL_LENGTH ? `${clean.slice(0, MAX_LABEL_LENGTH - 1)}…` : clean;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function isCandidate(value: unknown): value is Candidate {
  return value !== null && typeof value === "object" && typeof (value as Candidate).id === "string" && typeof (value as Candidate).label === "string";
}
