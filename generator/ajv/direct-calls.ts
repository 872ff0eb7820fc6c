// ajv calls a function of a `$ref` cycle through a wrapper object where the function was still
// being compiled when the reference was met; shared-functions.ts makes those calls direct before
// it cuts the validator into modules, so a cycle is one text whichever way a tool enters it.
// Assumption 13 (shared-functions.ts) holds here too: every search reads codeOnly's blanked copy.
import { IDENTIFIER } from "./top-level-statements.ts";

// `const wrapper_x = {validate: validate_y};` as ajv prints it (its name as stable-names.ts makes it), read on the blanked copy.
const WRAPPER = /^const ([A-Za-z_$][\w$]*) = \{validate: ([A-Za-z_$][\w$]*)\};$/gm;

/**
 * The validator with each call through a wrapper made a call of the function itself:
 * `wrapper_x.validate(...)` and `wrapper_x.validate.errors` become `validate_y(...)` and
 * `validate_y.errors`, and a wrapper nothing else reads is left out. ajv calls a function of a
 * `$ref` cycle through a wrapper where the function was still being compiled when the reference
 * was met, so which references of a cycle are wrappers depends on where the tool's schema entered
 * the cycle: Elasticsearch's query DSL cycle (122 functions, 874 KB) came out in 43 texts, one per
 * entry point, that differed only there, and each was written as a module of its own. In the
 * printed module every function is declared at the top level (assumption 13), so the wrapper's
 * `validate` is that function: the call is the same. Uses are found on `blanked`
 * (codeOnly(code)), so schema text is never rewritten; a use other than `.validate` keeps its
 * wrapper. Returns the code and its blanked copy.
 */
export function withDirectCalls(code: string, blanked: string): { code: string; blanked: string } {
  // Most validators have no wrapper: a substring search says so before the line pattern is tried.
  if (!blanked.includes(" = {validate: ")) return { code, blanked };
  const targets = new Map<string, { readonly target: string; readonly at: number; readonly end: number }>();
  for (const match of blanked.matchAll(WRAPPER)) {
    // The declaration reads the same in the code: no schema text in it.
    if (code.slice(match.index, match.index + match[0].length) !== match[0]) continue;
    targets.set(match[1] as string, { target: match[2] as string, at: match.index, end: match.index + match[0].length });
  }
  if (targets.size === 0) return { code, blanked };
  // Each use of a wrapper name: `.validate` after it is rewritten, any other use keeps the wrapper.
  const edits: { readonly at: number; readonly end: number; readonly text: string }[] = [];
  const kept = new Set<string>();
  for (const match of blanked.matchAll(IDENTIFIER)) {
    const wrapper = targets.get(match[0]);
    if (!wrapper || match.index === wrapper.at + "const ".length) continue;
    const after = match.index + match[0].length;
    if (code.startsWith(".validate", after) && !/[\w$]/.test(code.charAt(after + ".validate".length)))
      edits.push({ at: match.index, end: after + ".validate".length, text: wrapper.target });
    else kept.add(match[0]);
  }
  for (const [name, wrapper] of targets) {
    if (kept.has(name)) continue;
    // The declaration's line goes, with its line break (layout.ts writes one per line), and a
    // blank line after it when one is before it too.
    let end = code.charAt(wrapper.end) === "\n" ? wrapper.end + 1 : wrapper.end;
    if (code.charAt(wrapper.at - 1) === "\n" && (wrapper.at < 2 || code.charAt(wrapper.at - 2) === "\n") && code.charAt(end) === "\n") end++;
    edits.push({ at: wrapper.at, end, text: "" });
  }
  edits.sort((a, b) => a.at - b.at);
  const codeParts: string[] = [];
  const blankedParts: string[] = [];
  let last = 0;
  for (const edit of edits) {
    codeParts.push(code.slice(last, edit.at), edit.text);
    // A function's name is code: its blanked copy is itself.
    blankedParts.push(blanked.slice(last, edit.at), edit.text);
    last = edit.end;
  }
  codeParts.push(code.slice(last));
  blankedParts.push(blanked.slice(last));
  return { code: codeParts.join(""), blanked: blankedParts.join("") };
}
