// The value side of redaction (redact.ts): secret values replaced in a parsed copy, by name and
// by location.
import type { JsonValue } from "../contract/tool-spec.ts";

/** What replaces a redacted value. */
export const REDACTED = "[redacted]";

/** What decides that a value is secret: its key's name, or its location (pointer patterns as token lists, `*` for any one token). */
export interface ValueRules {
  readonly isSecretName: (key: string) => boolean;
  readonly pointers: readonly (readonly string[])[];
}

/** Whether a pointer pattern matches the location `tokens` or one above it. */
export function matches(pattern: readonly string[], tokens: readonly string[]): boolean {
  if (pattern.length > tokens.length) return false;
  // A pattern matches the location itself or anything under it.
  for (let index = 0; index < pattern.length; index++) if (pattern[index] !== "*" && pattern[index] !== tokens[index]) return false;
  return true;
}

/** Keys in every object of `value`. */
export function keyCount(value: JsonValue): number {
  if (value === null || typeof value !== "object") return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += keyCount(item);
  else for (const key of Object.keys(value)) count += 1 + keyCount(value[key] as JsonValue);
  return count;
}

/** Replaces secret values in place; returns how many were replaced. */
export function redactValue(value: JsonValue, path: string[], rules: ValueRules, mark: (secret: unknown) => unknown = () => REDACTED): number {
  if (value === null || typeof value !== "object") return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(String(index));
      if (rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path))) {
        value[index] = mark(value[index]) as JsonValue;
        count++;
      } else count += redactValue(value[index] as JsonValue, path, rules, mark);
      path.pop();
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    path.push(key);
    if (rules.isSecretName(key) || rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path))) {
      Object.defineProperty(value, key, { value: mark(value[key]), writable: true, enumerable: true, configurable: true });
      count++;
    } else count += redactValue(value[key] as JsonValue, path, rules, mark);
    path.pop();
  }
  return count;
}

/**
 * Whether `redactValue` would replace anything in `value`, without copying or changing it: the
 * same rules, asked in the same order, stopping at the first secret. `path` as for `redactValue`.
 */
export function holdsSecret(value: JsonValue, path: string[], rules: ValueRules): boolean {
  if (value === null || typeof value !== "object") return false;
  // Without pointer patterns only key names decide, and no path need be kept.
  const located = rules.pointers.length > 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (!located) {
        if (holdsSecret(value[index] as JsonValue, path, rules)) return true;
        continue;
      }
      path.push(String(index));
      const secret =
        rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path)) || holdsSecret(value[index] as JsonValue, path, rules);
      path.pop();
      if (secret) return true;
    }
    return false;
  }
  // `for...in` reads the object's enumeration cache and allocates nothing; an inherited key it
  // may also meet can only make the answer "yes", which the caller checks by redacting a copy.
  for (const key in value) {
    if (rules.isSecretName(key)) return true;
    if (!located) {
      if (holdsSecret(value[key] as JsonValue, path, rules)) return true;
      continue;
    }
    path.push(key);
    const secret =
      rules.pointers.some((pattern) => pattern.length === path.length && matches(pattern, path)) || holdsSecret(value[key] as JsonValue, path, rules);
    path.pop();
    if (secret) return true;
  }
  return false;
}
