// What the description of a field strict mode makes required and nullable tells the model. A
// schema's author wrote it for the tool's own schema, where an optional field may be left out
// ("Optional: omit it for the standard terms"); under strict mode every field must be sent and
// `null` is how it is left out (the guard drops exactly those nulls). So the ways of saying
// "omit it" are rewritten to "send null", and a description that then says nothing of null is
// told what null means here.

/** Phrases that ask the model to leave the field out, and what they read as under strict mode. */
const OMISSIONS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:omit|skip|leave out) (?:it|this field|the field|this)\b/gi, "send null"],
  [/\bleave (?:it|this field|the field|this) (?:out|empty|blank|unset)\b/gi, "send null"],
  [/\bomit to\b/gi, "send null to"],
  [/\b(can|may|should) be (?:omitted|left out)\b/gi, "$1 be null"],
  [/\b(if|when|where|unless) (?:omitted|left out|absent|not (?:given|set|sent|provided|specified))\b/gi, "$1 null"],
];

/** Said of a field whose description does not say what null means. */
export const NULL_MEANS_ABSENT = "Send null to leave it out.";

/** The description of an optional field as strict mode shows it: required, with null for "absent". */
export function strictNullableDescription(description: string | undefined): string {
  if (description === undefined || description.trim() === "") return NULL_MEANS_ABSENT;
  let text = description;
  for (const [pattern, replacement] of OMISSIONS) text = text.replace(pattern, (match, ...groups) => sameCase(match, expand(replacement, groups)));
  if (/\bnull\b/i.test(text)) return text;
  return `${text.trimEnd()}${/[.!?]$/.test(text.trimEnd()) ? "" : "."} ${NULL_MEANS_ABSENT}`;
}

/** `$1` in a replacement, from the match's groups (the strings before the offset argument). */
function expand(replacement: string, groups: unknown[]): string {
  return replacement.replace(/\$1/g, typeof groups[0] === "string" ? groups[0] : "");
}

/** The replacement capitalised as the phrase it replaces was ("Omit it" -> "Send null"). */
function sameCase(original: string, replacement: string): string {
  const first = original.charAt(0);
  return first === first.toUpperCase() && first !== first.toLowerCase() ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}
