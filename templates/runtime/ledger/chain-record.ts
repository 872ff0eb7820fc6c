// The ledger entry of one chain. The call hands over references (the chain, its attempts, the
// snapshot of the passing attempt) and nothing else: the chain id, the time text, redaction,
// caps, `arguments` and the idempotency key are all derived when the entry is serialised, by
// the sink, off the call's path.
import type { Resolution } from "../contract/resolution.ts";
import type { JsonValue } from "../contract/tool-spec.ts";
import type { LedgerAttempt, LedgerEntry, Verdict } from "./ledger.ts";
import { chainIdOf, chainPrefix, chainId, mintChain } from "./chain-id.ts";
import { isoTime } from "./iso-time.ts";
import { type EntryBody, isPlainResolution, writeEntry, writeResolvedEntry } from "./entry-text.ts";
import { writeCleanEntry, writeEmbeddedResolved } from "./clean-line.ts";
import { CLEAN_RESOLVED, cleanShapeOf, keptAsItIs, NOT_CLEAN, resolvedAsItIs } from "./clean-entry.ts";
import { type ArgumentsPart, argumentsPart, UNCHANGED } from "./arguments-part.ts";
import type { ArgumentsSnapshot } from "./arguments-snapshot.ts";
import type { LineWriter } from "./line-writer.ts";
import { MAX_ATTEMPTS_WRITTEN, type RecordPolicy } from "./record-policy.ts";
import { keysDeclared, parsedWhole } from "./declared-keys.ts";
import { settleErrors } from "./deferred-errors.ts";
import { writtenAttempts } from "./written-attempt.ts";

/** What an entry needs of its chain: the id, read only when the entry is. */
export interface ChainIdentity {
  readonly id: string;
}

export type { ArgumentsSnapshot } from "./arguments-snapshot.ts";

/**
 * Attempts made after their turn was refused (recorded in the refused chain, answered with a
 * refusal): not repairs, whatever came before them.
 */
const REFUSED_ATTEMPTS: WeakSet<LedgerAttempt> = new WeakSet();

/** Marks `attempt` as made after its turn was refused; returns it. */
export function markRefused(attempt: LedgerAttempt): LedgerAttempt {
  REFUSED_ATTEMPTS.add(attempt);
  return attempt;
}

/** A ledger entry whose id, time, arguments and key are derived only when it is serialised or read. */
export class ChainRecord implements LedgerEntry {
  // The fields a clean entry's line reads come first, so that they share the record's first
  // cache lines: the sink reads a record long after the call made it, out of cache, and these
  // first reads are a large part of a clean line (0.89-0.91x of the line with them last).
  /**
   * A clean entry's raw text (`cleanShapeOf`), decided here, where the attempt was just made and
   * is in cache: the line then writes it without asking the attempt, the snapshot or the
   * arguments again (`writeTo`). Undefined for any other entry.
   */
  readonly #cleanRaw: string | undefined;
  /** A clean entry's raw text is one whole JSON text as the guard's parse read it (`parsedWhole`): its line may embed it (version 3). */
  readonly #cleanEmbed: boolean;
  /** The written attempts and arguments once read (`#written`). */
  #cache: Written | undefined;
  readonly #policy: RecordPolicy | undefined;
  /** The clean attempt's keys are all declared (declared-keys.ts): the redactor may keep its text unscanned. */
  readonly #cleanDeclared: boolean;
  /** A clean resolved entry's one resolution, in the attempt's own list (its arguments are the raw text with it applied); undefined for any other. */
  readonly #cleanResolutions: readonly Resolution[] | undefined;
  #startedAt: number | undefined;
  #chain: string | undefined;
  readonly #identity: ChainIdentity | undefined;
  /** An id minted by `writeTo` without its text (chain-id.ts `mintChain`): its prefix and counter, -1 for none. */
  #mintedCounter = -1;
  #mintedPrefix = "";
  readonly tool: string;
  readonly turn: string;
  readonly verdict: Verdict;
  readonly #attempts: readonly LedgerAttempt[];
  readonly #snapshot: ArgumentsSnapshot | undefined;
  /**
   * The key as it stood when the entry was recorded: present when the implementation read it.
   * Taken then, not at serialisation, so whether an entry has a key does not depend on timing.
   */
  readonly #key: string | undefined;
  /** Whether the attempts' deferred errors are in place (deferred-errors.ts); only a chain's entry can hold such attempts. */
  #errorsSettled = false;

  constructor(
    identity: ChainIdentity | undefined,
    tool: string,
    turn: string,
    startedAt: number | undefined,
    verdict: Verdict,
    attempts: readonly LedgerAttempt[],
    snapshot: ArgumentsSnapshot | undefined,
    policy?: RecordPolicy,
  ) {
    this.#identity = identity;
    this.tool = tool;
    this.turn = turn;
    this.verdict = verdict;
    this.#attempts = attempts;
    this.#startedAt = startedAt;
    this.#snapshot = snapshot;
    this.#policy = policy;
    this.#key = snapshot?.keyIfRead;
    const only = identity === undefined && verdict === "ok" && attempts.length === 1 && this.#key === undefined ? attempts[0] : undefined;
    const shape = only === undefined ? NOT_CLEAN : cleanShapeOf(only, snapshot);
    this.#cleanRaw = shape === NOT_CLEAN ? undefined : (only as LedgerAttempt).raw;
    this.#cleanDeclared = shape !== NOT_CLEAN && keysDeclared(only as LedgerAttempt);
    this.#cleanEmbed = shape !== NOT_CLEAN && parsedWhole(only as LedgerAttempt);
    this.#cleanResolutions = shape === CLEAN_RESOLVED ? (only as LedgerAttempt).resolutions : undefined;
  }

  /** The chain's id, minted only when the entry is read, off the call's path. */
  get chain(): string {
    if (this.#chain !== undefined) return this.#chain;
    if (this.#mintedCounter >= 0) return (this.#chain = chainIdOf(this.#mintedPrefix, this.#mintedCounter));
    return (this.#chain = this.#identity?.id ?? chainId());
  }

  get mintedPrefix(): string {
    return this.#mintedPrefix;
  }

  /** -1 unless `writeTo` minted the id (then `chain` is derived from it when read). */
  get mintedCounter(): number {
    return this.#mintedCounter;
  }

  get startedAt(): string {
    return isoTime(this.startedAtMs);
  }

  get startedAtMs(): number {
    // Undefined: read when the entry first is (in the call's tick), or the sink's slice time (`LineWriter#time`).
    return Math.round((this.#startedAt ??= Date.now()));
  }

  /** The attempts as written: redacted and capped. */
  get attempts(): readonly LedgerAttempt[] {
    return this.#written().attempts;
  }

  /** Attempts that answered a failed one (a reply to a question, or a refused call, is not a repair). */
  get repairs(): number {
    const attempts = this.#attempts;
    let repairs = 0;
    for (let index = 1; index < attempts.length; index++) {
      if (attempts[index - 1]?.failure && !REFUSED_ATTEMPTS.has(attempts[index] as LedgerAttempt)) repairs++;
    }
    return repairs;
  }

  get v(): 1 | 2 {
    return version(this.#written());
  }

  get arguments(): JsonValue | undefined {
    return this.#written().argumentFields.arguments;
  }

  /** True when `arguments` is left out because it is the passing attempt's raw text with its resolutions applied. */
  get argumentsResolved(): true | undefined {
    return this.#written().resolved ? true : undefined;
  }

  get idempotencyKey(): string | undefined {
    return this.#key;
  }

  toJSON(): LedgerEntry {
    const written = this.#written();
    return {
      v: version(written),
      chain: this.chain,
      tool: this.tool,
      turn: this.turn,
      startedAt: this.startedAt,
      verdict: this.verdict,
      attempts: written.attempts,
      ...(written.omitted > 0 ? { attemptsOmitted: written.omitted } : {}),
      repairs: this.repairs,
      ...written.argumentFields,
      ...(written.resolved ? { argumentsResolved: true } : {}),
      idempotencyKey: this.#key,
    };
  }

  /**
   * Writes the entry's JSON into the sink's buffer, field by field (entry-text.ts): the same
   * value as `JSON.stringify(this)` without building the plain object or its text first.
   */
  writeTo(out: LineWriter): void {
    // A clean entry (nearly every line) whose raw text is written as it is: the line's fixed pieces
    // around the turn and that text, nothing else read (what is left of `cleanShapeOf`'s test is
    // the tool's, not the entry's: its text cap and whether its redactor keeps the text).
    const raw = this.#cleanRaw;
    if (raw !== undefined && this.#cache === undefined && keptAsItIs(raw, this.#policy, this.#cleanDeclared)) {
      const resolutions = this.#cleanResolutions;
      if (resolutions === undefined) {
        this.#stampTimeAndId(out);
        writeCleanEntry(out, this, raw, this.#cleanEmbed);
        return;
      }
      // Resolved: the arguments are left to the reader (`argumentsResolved`) when the redactor
      // keeps the resolution and the arguments hold no secret, as `#argumentsPart` decides.
      const resolution = resolutions[0] as Resolution;
      if (resolvedAsItIs(raw, resolutions, this.#policy, this.#cleanDeclared) && isPlainResolution(resolution)) {
        this.#stampTimeAndId(out);
        if (this.#cleanEmbed && writeEmbeddedResolved(out, this, raw, resolution)) return;
        if (writeResolvedEntry(out, this, raw, resolution)) return;
      }
    }
    // Not kept: the sink serialises an entry once and drops it; whoever keeps the entry and
    // reads it again gets the same value computed again (and kept then).
    const cached = this.#cache;
    const all = this.#settled();
    let attempts: readonly LedgerAttempt[];
    let body: EntryBody;
    if (cached !== undefined) {
      attempts = cached.attempts;
      body = cached;
    } else if (all.length > MAX_ATTEMPTS_WRITTEN) {
      const written = this.#compute();
      attempts = written.attempts;
      body = written;
    } else {
      // Nothing capped (nearly every entry): the attempts as written and, when the arguments
      // differ from the raw text, their members; no object made for either in the common cases
      // (a clean call, a repair, a call whose references alone changed it).
      const policy = this.#policy;
      attempts = policy ? writtenAttempts(all, policy) : all;
      body = this.#snapshot?.changed === true ? argumentsPart(this.#snapshot as ArgumentsSnapshot, this.#policy, this.#attempts, attempts) : UNCHANGED;
    }
    this.#stampTimeAndId(out);
    writeEntry(out, this, attempts, body);
  }

  /**
   * An id nobody read yet is minted here and written as bytes; `chain` makes its text if asked.
   * A time nobody read yet is the slice's (one clock read a slice, not one a line).
   */
  #stampTimeAndId(out: LineWriter): void {
    if (this.#startedAt === undefined) this.#startedAt = out.time();
    if (this.#chain === undefined && this.#identity === undefined && this.#mintedCounter < 0) {
      this.#mintedCounter = mintChain();
      this.#mintedPrefix = chainPrefix();
    }
  }

  /** The attempts, their errors in place: what every read of them starts from. */
  #settled(): readonly LedgerAttempt[] {
    if (!this.#errorsSettled && this.#identity !== undefined) settleErrors(this.#attempts);
    this.#errorsSettled = true;
    return this.#attempts;
  }

  #written(): Written {
    return (this.#cache ??= this.#compute());
  }

  #compute(): Written {
    const policy = this.#policy;
    const all = this.#settled();
    let omitted = 0;
    let chosen = all;
    if (all.length > MAX_ATTEMPTS_WRITTEN) {
      // The first attempts say what the model started from, the last how the chain ended.
      const head = MAX_ATTEMPTS_WRITTEN / 2;
      chosen = [...all.slice(0, head), ...all.slice(all.length - head)];
      omitted = all.length - chosen.length;
    }
    const attempts = policy ? writtenAttempts(chosen, policy) : chosen;
    const part = this.#snapshot?.changed ? argumentsPart(this.#snapshot as ArgumentsSnapshot, this.#policy, this.#attempts, attempts) : UNCHANGED;
    return { ...part, attempts, omitted };
  }
}

interface Written extends ArgumentsPart {
  /** The attempts as written: redacted and capped. */
  readonly attempts: readonly LedgerAttempt[];
}

/** 2 when the line uses `argumentsResolved` (a version-1 reader would take the raw text for the arguments), else 1. */
function version(written: Written): 1 | 2 {
  return written.resolved ? 2 : 1;
}
