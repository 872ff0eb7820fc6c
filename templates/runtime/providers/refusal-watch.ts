// When a model will not stop. After a refusal (`arguments_rejected`: "Do not retry. Ask the
// user ...") the guard refuses every further call to that tool in the turn at once, so nothing
// runs; but a model that ignores it keeps calling until the loop's step limit, where a hand-made
// loop ends with no answer and the OpenAI Agents runner throws `MaxTurnsExceededError`. A loop
// feeds each step's tool results to a `RefusalWatch`, which says when to end the turn instead,
// with the refusal as its answer.

/** A tool result as the adapters build them: its text, or an SDK object holding it. */
export type ToolResultLike = string | { readonly content?: unknown; readonly output?: unknown };

/** The refusal to end a turn with, or undefined to go on. */
export class RefusalWatch {
  #shown: string | undefined;
  #ended = false;

  /**
   * Call after each step with the results sent back for it. Returns the refusal's text (the
   * JSON the model was sent) when every call of this step was refused and the model had already
   * been shown a refusal in this turn: it is not going to stop, so end the turn with it.
   */
  after(results: readonly ToolResultLike[]): string | undefined {
    const refusal = allRefused(results);
    if (refusal !== undefined && this.#shown !== undefined) {
      this.#ended = true;
      return refusal;
    }
    this.#shown ??= refusal;
    return undefined;
  }

  /** Whether `after` has said to end the turn (for a loop an SDK drives, told through a stop condition). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The turn's first refusal, if any: the answer for a loop that reached its step limit. */
  get refusal(): string | undefined {
    return this.#shown;
  }
}

/** The first result's text when every result is an `arguments_rejected` outcome; else undefined. */
export function allRefused(results: readonly ToolResultLike[]): string | undefined {
  const texts = results.map(textOf);
  if (texts.length === 0 || !texts.every((text) => text !== undefined && isRefusal(text))) return undefined;
  return texts[0];
}

function textOf(result: ToolResultLike): string | undefined {
  if (typeof result === "string") return result;
  if (typeof result.content === "string") return result.content;
  if (typeof result.output === "string") return result.output;
  return undefined;
}

function isRefusal(text: string): boolean {
  try {
    return (JSON.parse(text) as { status?: unknown } | null)?.status === "arguments_rejected";
  } catch {
    return false;
  }
}
