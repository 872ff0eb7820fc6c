// Reading JSON-like text by hand, as the literal repairer and the syntactic mistakes do: they
// rewrite what stands outside strings and copy every double-quoted string as it is.

/** The index of the `"` that closes the string opening at `start` (escapes skipped); the text's length when none does. */
export function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
  return i;
}
