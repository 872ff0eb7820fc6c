// Fields sent at one level that all belong one place further in (a request body's 25 fields sent
// beside `body`): one "move" error each would pass the error cap, and the model, told "and N
// more", needs a second round for the rest. Past the cap, the moves out of one object into one
// place become one error that lists every move, so the whole repair fits in one envelope.
import type { ArgumentError } from "../contract/outcome.ts";

/** Where a move error's field goes: the holder it leaves and the pointer it belongs at. */
interface Move {
  readonly holder: string;
  readonly target: string;
  /** The field is one the holder takes (an open object), not an unknown one. */
  readonly taken?: boolean;
}

const movesByError = new WeakMap<ArgumentError, Move>();

/** Notes that `error` says to move the field it names from the object at `holder` to `target`. */
export function noteMove(error: ArgumentError, holder: string, target: string, taken = false): ArgumentError {
  movesByError.set(error, taken ? { holder, target, taken } : { holder, target });
  return error;
}

/**
 * `errors` with every two or more moves that leave one object for one place written as one
 * error, when the list is longer than `maxErrors`; otherwise `errors` itself. A move whose
 * pointers hold white space stays its own error: the grouped form separates moves by spaces.
 */
export function groupMoves(errors: readonly ArgumentError[], maxErrors: number): readonly ArgumentError[] {
  if (errors.length <= maxErrors) return errors;
  const groups = new Map<string, { readonly error: ArgumentError; readonly move: Move }[]>();
  for (const error of errors) {
    const move = movesByError.get(error);
    if (move === undefined || /\s/.test(error.path + move.target)) continue;
    const key = `${move.holder}\u0000${parentOf(move.target)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [{ error, move }]);
    else group.push({ error, move });
  }
  const grouped = new Map<ArgumentError, ArgumentError | undefined>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const [first, ...rest] = group as [{ readonly error: ArgumentError; readonly move: Move }, ...{ readonly error: ArgumentError }[]];
    const steps = group.map(({ error, move }) => `move ${error.path} to ${move.target}`);
    const kind = group.every(({ move }) => move.taken === true) ? "fields" : "unknown fields";
    const message = `${group.length} ${kind} at this level are declared at ${parentOf(first.move.target)}: ${steps.join("; ")}`;
    grouped.set(first.error, { path: first.move.holder, rule: "additionalProperties", message });
    for (const { error } of rest) grouped.set(error, undefined);
  }
  if (grouped.size === 0) return errors;
  const out: ArgumentError[] = [];
  for (const error of errors) {
    if (!grouped.has(error)) out.push(error);
    else {
      const replacement = grouped.get(error);
      if (replacement !== undefined) out.push(replacement);
    }
  }
  return out;
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf("/"));
}
