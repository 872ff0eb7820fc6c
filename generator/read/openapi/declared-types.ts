// The `type` a schema declares, as a list, for the rules that depend on it.

/** `type` as a list: a string becomes one entry, anything that is not a string is ignored. */
export function typesOf(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}
