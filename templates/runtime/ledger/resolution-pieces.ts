// The fixed bytes around a resolved-only attempt's resolution (entry-text.ts): a resolved call's
// line is mostly one reference field's path and target, the same on every call of a tool, so they
// are escaped once per field and kept, and only the resolved text and id are escaped per line.

/**
 * A field's pieces around its resolution's text and id: `head` from the end of the raw text (or
 * finish reason) to the text (`,"errors":[],"coercions":[],"resolutions":[{"path":<path>,"text":`),
 * and from after the id to each of the line's ends (`,"target":<target>}]` and the end).
 */
export interface ResolutionPieces {
  readonly path: string;
  readonly target: string;
  readonly head: Uint8Array;
  readonly ends: readonly Uint8Array[];
}

/**
 * Fields kept; past them (a sink user's made-up paths, or a field inside an array, one path per
 * index) a resolution is written by the general writer: pieces made per line would cost more.
 */
const MAX_FIELDS_KEPT = 4096;

/** Around an attempt's one resolution: the attempt's empty lists, then the list of one. */
const ATTEMPT_LIST = { open: ',"errors":[],"coercions":[],"resolutions":[{"path":', close: "}]" };

/** Pieces per reference field's path (its target checked too), with the last field used first. */
export class ResolutionPieceTable {
  readonly #ends: readonly string[];
  readonly #open: string;
  readonly #close: string;
  readonly #byPath = new Map<string, ResolutionPieces>();
  /** The pieces used last: a process's resolved lines mostly come from one field. */
  #last: ResolutionPieces | undefined;

  /**
   * `ends`: what follows the target's `}]` for each way the attempt can end. `around`: what
   * comes before the path and after the target, when the resolution is not an attempt's one-item
   * list (a version-3 line's `resolved` member: `{"path":` and `}`, clean-line.ts).
   */
  constructor(ends: readonly string[], around: { readonly open: string; readonly close: string } = ATTEMPT_LIST) {
    this.#ends = ends;
    this.#open = around.open;
    this.#close = around.close;
  }

  /** The pieces of a field, or undefined past the bound (the general writer then). */
  of(path: string, target: string): ResolutionPieces | undefined {
    const last = this.#last;
    if (last !== undefined && last.path === path && last.target === target) return last;
    let pieces = this.#byPath.get(path);
    if (pieces === undefined || pieces.target !== target) {
      if (pieces === undefined && this.#byPath.size >= MAX_FIELDS_KEPT) return undefined;
      pieces = this.#make(path, target);
      this.#byPath.set(path, pieces);
    }
    this.#last = pieces;
    return pieces;
  }

  #make(path: string, target: string): ResolutionPieces {
    // JSON.stringify's own escape of each (a lone surrogate as `\udXXX`), as the line writer's `string` writes it.
    const tail = `,"target":${JSON.stringify(target)}${this.#close}`;
    return {
      path,
      target,
      head: Buffer.from(`${this.#open}${JSON.stringify(path)},"text":`, "utf8"),
      ends: this.#ends.map((end) => Buffer.from(`${tail}${end}`, "utf8")),
    };
  }
}
