import { type ConstantValues, constantValue, NOT_JSON } from "./constant-values.ts";

// Where in the compiled schema each of ajv's schema constants (`const schemaN = <JSON>;`) sits,
// so that stable-names.ts can name a constant by its schema location rather than ajv's counter.
/**
 * Assumption 10 again (`const schemaN = <JSON>;`, one line each): the location in `compiled`,
 * the schema ajv compiled, of the value each schema constant holds; the first location in
 * document order when the same value sits at several.
 *
 * A constant's text is `JSON.stringify` of the value it holds, so a location holds it when its
 * value prints the same. Printing every object of a large schema would print each one once per
 * enclosing object; only those whose keys (or, for an array, whose length) are a constant's are
 * printed.
 */
export function schemaLocations(
  code: string,
  compiled: unknown,
  /** The constants' values parsed so far for this validator (constant-values.ts), shared with pruning. */
  values?: ConstantValues,
): Map<string, string> {
  const out = new Map<string, string>();
  const constants = [...code.matchAll(/^const (schema\d+) = (.*);$/gm)];
  if (constants.length === 0) return out;
  // Each constant's text, by the outline a value must have to print as it.
  const wanted = new Map<string, Set<string>>();
  // Values print alike only with as many keys (or items; -1 - length for an array): most values
  // are ruled out by their count, read while their children are visited, before their outline
  // is spelled.
  const sizes = new Set<number>();
  for (const [, , text] of constants) {
    const value = constantValue(text as string, values);
    if (value === NOT_JSON) continue; // no location prints it
    if (value === null || typeof value !== "object") continue;
    const key = outline(value);
    wanted.set(key, (wanted.get(key) ?? new Set()).add(text as string));
    sizes.add(Array.isArray(value) ? -1 - value.length : Object.keys(value).length);
  }
  const where = new Map<string, string>();
  // The steps to the value being visited; a pointer is spelled only for a value that is found.
  const steps: string[] = [];
  // Each value is looked up after its children: a value never prints as one inside it (that
  // text is shorter), so of two that print alike the first in document order is still met
  // first, as when parents are looked up before their children.
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    let size: number;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        steps.push(String(index));
        visit(value[index]);
        steps.pop();
      }
      size = -1 - value.length;
    } else {
      size = 0;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        if (child !== undefined) size++;
        steps.push(key);
        visit(child);
        steps.pop();
      }
    }
    if (!sizes.has(size)) return;
    const texts = wanted.get(outline(value));
    if (texts !== undefined) {
      const text = JSON.stringify(value);
      if (texts.has(text) && !where.has(text)) where.set(text, ["#", ...steps.map((step) => step.replace(/~/g, "~0").replace(/\//g, "~1"))].join("/"));
    }
  };
  visit(compiled);
  for (const [, name, text] of constants) {
    const location = where.get(text as string);
    if (location !== undefined) out.set(name as string, location);
  }
  return out;
}

/** An object's own keys in order, or an array's length: what two values that print alike share. */
function outline(value: object): string {
  if (Array.isArray(value)) return `[${value.length}`;
  let keys = "{";
  // As JSON.stringify prints it: a key whose value is undefined is left out.
  for (const key in value) if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined) keys += `${key},`;
  return keys;
}
