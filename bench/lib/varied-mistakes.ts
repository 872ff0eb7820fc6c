// Figure 2's first-time mistakes. The one-mistake rows of lib/bodies.ts send one wrong value in
// every text (`"eur"`, `"no"`, `"pr_title"`), so from the second call the envelope finds its
// message remembered per schema location (explain/location.ts keeps the first 32 texts it meets
// at a location): those rows price a repeated mistake. Here each text carries its own wrong
// value, at the same place and of the same kind, drawn (seeded) from what models write: an
// allowed value in another case, with another separator, a typo or two, cut short; a boolean's
// word that is not `true` or `false` (`"no"`, `"Yes"`, `"flase"`); an object where a number or a
// title is wanted. Hundreds to thousands of distinct values per case, so the memory holds at most
// 32 of them and nearly every call pays for its message: the price of a first-time mistake.
import { distinctText } from "./bodies.ts";
import { choose, mulberry32, type Random } from "../simulate/random.ts";

/** Keys around each letter on a QWERTY keyboard: a typo hits a neighbour. */
const NEIGHBOURS: Readonly<Record<string, string>> = {
  a: "qwsz",
  b: "vghn",
  c: "xdfv",
  d: "serfcx",
  e: "wsdr",
  f: "drtgvc",
  g: "ftyhbv",
  h: "gyujnb",
  i: "ujko",
  j: "huikmn",
  k: "jiolm",
  l: "kop",
  m: "njk",
  n: "bhjm",
  o: "iklp",
  p: "ol",
  q: "wa",
  r: "edft",
  s: "awedxz",
  t: "rfgy",
  u: "yhji",
  v: "cfgb",
  w: "qase",
  x: "zsdc",
  y: "tghu",
  z: "asx",
};

const sameCase = (like: string, letter: string): string => (like === like.toUpperCase() ? letter.toUpperCase() : letter);

/** One typo at a random letter: a neighbouring key, two letters swapped, one dropped or doubled. */
function typo(text: string, random: Random): string {
  const at = Math.floor(random() * text.length);
  const letter = text[at] as string;
  const kind = Math.floor(random() * 4);
  if (kind === 0) {
    const near = NEIGHBOURS[letter.toLowerCase()];
    return near === undefined ? text : text.slice(0, at) + sameCase(letter, choose([...near], random)) + text.slice(at + 1);
  }
  if (kind === 1 && at + 1 < text.length) return text.slice(0, at) + text[at + 1] + letter + text.slice(at + 2);
  if (kind === 2 && text.length > 2) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + letter + text.slice(at);
}

/** The words of an allowed value written another way: lower case, capitalised, or each letter's case at random. */
function recased(text: string, random: Random): string {
  const kind = Math.floor(random() * 3);
  if (kind === 0) return text.toLowerCase();
  if (kind === 1) return text.toLowerCase().replace(/(^|[_\s-])([a-z])/g, (_, sep: string, first: string) => sep + first.toUpperCase());
  return [...text].map((letter) => (random() < 0.5 ? letter.toLowerCase() : letter.toUpperCase())).join("");
}

/** `PR_TITLE` as `pr-title`, `PR TITLE`, `PRTITLE` or `prTitle`. */
function reseparated(text: string, random: Random): string {
  if (!/[_\s-]/.test(text)) return recased(text, random);
  const kind = Math.floor(random() * 4);
  if (kind === 3) return text.toLowerCase().replace(/[_\s-]+([a-z])/g, (_, first: string) => first.toUpperCase());
  return text.replace(/[_\s-]/g, ["-", " ", ""][kind] as string);
}

/** One kind of mistake: a fresh wrong value of that kind, or undefined when a draw made a value that is right. */
type Kind = (random: Random) => unknown;

/** An allowed value as a model misspells it, one kind each; never the value itself nor another allowed one. */
export function misspelt(allowed: readonly string[]): readonly Kind[] {
  const from =
    (change: (value: string, random: Random) => string): Kind =>
    (random) => {
      const wrong = change(choose(allowed, random), random);
      return allowed.includes(wrong) || wrong.length === 0 ? undefined : wrong;
    };
  return [
    from(recased),
    from(reseparated),
    from(typo),
    from((value, random) => typo(typo(value, random), random)),
    from((value, random) => recased(typo(value, random), random)),
    from((value, random) => value.slice(0, Math.max(2, value.length - 1 - Math.floor(random() * 3)))),
  ];
}

/** Words a model writes for a yes or a no; `true` and `false` are coerced, so they come misspelt. */
const BOOLEAN_WORDS = [
  "yes",
  "no",
  "y",
  "n",
  "on",
  "off",
  "1",
  "0",
  "none",
  "null",
  "draft",
  "not a draft",
  "ready",
  "ready for review",
  "wip",
  "enabled",
  "disabled",
  "nope",
  "yep",
  "n/a",
];

/** A string where a boolean is wanted, as a model sends one (never one the coercion reads as `true` or `false`). */
const notCoerced =
  (make: (random: Random) => string): Kind =>
  (random) => {
    const text = make(random);
    const reads = text.trim().toLowerCase();
    return reads === "true" || reads === "false" ? undefined : text;
  };
const wrapped = (text: string, random: Random): string => choose([`${text}.`, `'${text}'`, `\`${text}\``, ` ${text}`, `"${text}"`], random);
const misspeltBoolean = (random: Random): string => typo(choose(["true", "false"], random), random);
export const WRONG_BOOLEAN: readonly Kind[] = [
  notCoerced((random) => choose(BOOLEAN_WORDS, random)),
  notCoerced((random) => recased(choose(BOOLEAN_WORDS, random), random)),
  notCoerced((random) => wrapped(choose(BOOLEAN_WORDS, random), random)),
  notCoerced((random) => wrapped(choose(["true", "false", "True", "False"], random), random)),
  notCoerced(misspeltBoolean),
  notCoerced((random) => recased(misspeltBoolean(random), random)),
];

/** An object where a milestone's number (or title) is wanted: what the model took the field to hold. */
const milestone = (random: Random): number => 1 + Math.floor(random() * 400);
export const WRONG_MILESTONE: readonly Kind[] = [
  (random) => ({ number: milestone(random) }),
  (random) => ({ id: milestone(random) * 1000 + Math.floor(random() * 1000) }),
  (random) => {
    const number = milestone(random);
    return { title: `v${Math.floor(number / 10)}.${number % 10}` };
  },
  (random) => {
    const number = milestone(random);
    return { number, title: `Sprint ${number}` };
  },
  (random) => ({ name: `Q${1 + Math.floor(random() * 4)} ${2020 + Math.floor(random() * 7)}` }),
];

/** Where a one-mistake body's mistake sits, and the kinds of wrong value a model sends there. */
interface VariedMistake {
  readonly at: readonly string[];
  readonly kinds: readonly Kind[];
}

/** The mistake of each one-mistake body (lib/bodies.ts), with a fresh value per text. */
export const VARIED_MISTAKES: Readonly<Record<string, VariedMistake>> = {
  create_invoice: { at: ["currency"], kinds: misspelt(["USD", "EUR", "GBP"]) },
  issues_create: { at: ["body", "milestone"], kinds: WRONG_MILESTONE },
  pulls_create: { at: ["body", "draft"], kinds: WRONG_BOOLEAN },
  "repos_create-for-authenticated-user": { at: ["body", "squash_merge_commit_title"], kinds: misspelt(["PR_TITLE", "COMMIT_OR_PR_TITLE"]) },
};

/** Draws of one kind tried for a value not sent yet, before the kind counts as spent. */
const TRIES = 64;

/**
 * Up to `count` distinct wrong values, in the order drawn: each a kind picked at random among
 * those not spent, then that kind's first value not drawn before. So the kinds keep their share
 * while they last (a three-letter code has few case forms), and no value comes twice.
 */
function distinctWrongValues(kinds: readonly Kind[], count: number, random: Random): unknown[] {
  const live = [...kinds];
  const seen = new Set<string>();
  const values: unknown[] = [];
  while (values.length < count && live.length > 0) {
    const at = Math.floor(random() * live.length);
    const kind = live[at] as Kind;
    let found = false;
    for (let attempt = 0; attempt < TRIES && !found; attempt++) {
      const wrong = kind(random);
      const text = JSON.stringify(wrong);
      if (wrong === undefined || seen.has(text)) continue;
      seen.add(text);
      values.push(wrong);
      found = true;
    }
    if (!found) live.splice(at, 1);
  }
  return values;
}

/**
 * `count` distinct texts of `body` (tool `name`'s one-mistake body), each with a wrong value at
 * the mistake's place and a number after its free text. The wrong values are distinct (seeded:
 * the same texts on every run), up to `count` of them, repeated in the same order when the kinds
 * have fewer: each comes back only after every other has been sent, and the envelope's memory
 * keeps just the first 32 it meets at a location, so it can answer at most 32 in `wrongValues` calls.
 */
export function variedMistakeTexts(name: string, body: unknown, count: number, seed = 1): { texts: string[]; wrongValues: number } {
  const mistake = VARIED_MISTAKES[name];
  if (mistake === undefined) throw new Error(`varied-mistakes: no varied mistake for ${name}`);
  const values = distinctWrongValues(mistake.kinds, count, mulberry32(seed));
  const texts = Array.from({ length: count }, (_, index) => {
    const copy = structuredClone(body) as Record<string, unknown>;
    let holder = copy;
    for (const key of mistake.at.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
    holder[mistake.at.at(-1) as string] = values[index % values.length];
    return distinctText(name, copy, index);
  });
  return { texts, wrongValues: values.length };
}
