// Text from schemas (tool names, property names in paths, descriptions in messages), from the
// config and from the ledger, made inert for a pull-request comment. A property name is any
// string: with a line break and `<!--` it would open an HTML block that swallows the rest of the
// comment, `@team` would notify people, `[x](https://...)` and `![](...)` would link and load
// images. Every such text in the comment goes through one of these two functions.

/** Control characters and line or paragraph separators: a line break ends a table row or a tag. */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** ASCII punctuation CommonMark gives a meaning to; each is backslash-escaped in markdown text. */
const MARKDOWN = /[\\`*_{}[\]()#+\-.!|~]/g;

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text for an HTML block (the `<summary>` line), where markdown is not read: entities for
 * `& < > " '`, and for the punctuation of links, images, code and emphasis (should a renderer
 * read markdown there after all),
 * line breaks as spaces, and a zero-width space that keeps GitHub from reading an @mention, a
 * bare URL (`://`, `www.`) or an email address as one.
 */
export function htmlText(text: string): string {
  // One pass, so an entity's own `&` and `#` are never escaped again.
  return defuse(text.replace(BREAKS, " ")).replace(/[&<>"'\\`*[\]()!~]/g, (c) => ENTITIES[c] ?? `&#${c.charCodeAt(0)};`);
}

/** Text for markdown (a table cell, a list item, a heading): markdown punctuation backslash-escaped, HTML characters as entities, mentions and autolinks defused. */
export function markdownText(text: string): string {
  return defuse(text.replace(BREAKS, " "))
    .replace(MARKDOWN, (c) => `\\${c}`)
    .replace(/[&<>]/g, (c) => ENTITIES[c] as string);
}

/** Code-styled markdown text (`<code>`, not backticks, which a backtick in the text would close). */
export function markdownCode(text: string): string {
  return `<code>${markdownText(text)}</code>`;
}

/**
 * A zero-width space after `@`, inside `://` and `www.`, and between `#` and a number: no
 * mention, no autolink, no issue reference. Applied before any escaping, which would hide
 * `www.` from it.
 */
function defuse(text: string): string {
  return text
    .replace(/@/g, "@\u200b")
    .replace(/#(?=\d)/g, "#\u200b")
    .replace(/:\/\//g, ":\u200b//")
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}\u200b.`);
}
