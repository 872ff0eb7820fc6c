// Realistic misspellings of an allowed value, as models write them: tense and plural (`opened`
// for `open`, `closed` for `close`), British and American doubling (`canceled`/`cancelled`),
// a dropped letter (`jpg` for `jpeg`, `require_` for `required_`). Only those whose nearest
// allowed value, by an edit distance computed here independently of the runtime, is the value
// itself, by a clear margin: a mistake with one plausible intent.

export function misspellings(value: string, allowed: readonly string[]): string[] {
  const out = new Set<string>();
  // `created` -> `create` or `creat`, `selected` -> `select`; `open` -> `opened`, `close` -> `closed`.
  if (value.endsWith("ed")) {
    out.add(value.slice(0, -1));
    out.add(value.slice(0, -2));
  } else if (value.endsWith("e")) out.add(`${value}d`);
  else out.add(`${value}ed`);
  if (value.endsWith("s")) out.add(value.slice(0, -1));
  else out.add(`${value}s`);
  if (value.includes("ll")) out.add(value.replace("ll", "l"));
  else if (/[aeiou]l[aeiou]/.test(value)) out.add(value.replace(/([aeiou])l([aeiou])/, "$1ll$2"));
  const vowel = value.slice(1, -1).search(/[aeiou]/);
  if (vowel >= 0) out.add(value.slice(0, vowel + 1) + value.slice(vowel + 2));
  const firstWord = /^([a-z]+)d_/.exec(value);
  if (firstWord) out.add(value.replace(/^([a-z]+)d_/, "$1_"));
  return [...out].filter((wrong) => wrong.length >= 3 && clearlyMeans(wrong, value, allowed));
}

function normal(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, "");
}

function clearlyMeans(wrong: string, value: string, allowed: readonly string[]): boolean {
  if (allowed.some((other) => normal(other) === normal(wrong))) return false;
  const own = distance(normal(wrong), normal(value));
  if (own > 2 || own * 2 > normal(value).length) return false;
  return allowed.every((other) => other === value || distance(normal(wrong), normal(other)) > own);
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Whether `name` reads as a misspelling or the start of one of `names` (two edits at most, half the word): a second plausible intent. */
export function readsAsOneOf(name: string, names: readonly string[]): boolean {
  const key = normal(name);
  return names.some((other) => {
    const candidate = normal(other);
    const d = distance(key, candidate);
    return (d <= 2 && d * 2 <= candidate.length) || (key.length >= 3 && candidate.startsWith(key));
  });
}
