// Step 4's result written into the arguments: each reference field replaced by its target
// property holding the identifier the resolver gave.
import type { Resolution } from "../contract/resolution.ts";
import { pointerTokens } from "../json/json-pointer.ts";

/**
 * Writes the resolutions into the arguments: each reference field is replaced by its target
 * property holding the identifier, so the implementation never sees the model's text. Returns
 * the arguments: an object that held a reference field is rebuilt without it rather than
 * `delete`d from, which would leave it a slow dictionary-mode object for the rest of the call.
 */
export function applyResolutions(value: unknown, resolutions: readonly Resolution[]): unknown {
  let root = value;
  for (const resolution of resolutions) {
    const tokens = pointerTokens(resolution.path);
    const field = tokens.pop() as string;
    let holder: Record<string, unknown> | undefined;
    let node: unknown = root;
    for (const token of tokens) {
      holder = node as Record<string, unknown>;
      node = holder[token];
    }
    const rebuilt = withoutField(node as Record<string, unknown>, field, resolution.target, resolution.id);
    if (holder === undefined) root = rebuilt;
    else put(holder, tokens[tokens.length - 1] as string, rebuilt);
  }
  return root;
}

/** `parent` rebuilt without `field`, with `target` set to `id`. */
export function withoutField(parent: Record<string, unknown>, field: string, target: string, id: string): Record<string, unknown> {
  const rebuilt: Record<string, unknown> = {};
  for (const key of Object.keys(parent)) {
    if (key === field) continue;
    if (key === "__proto__") put(rebuilt, key, parent[key]);
    else rebuilt[key] = parent[key];
  }
  put(rebuilt, target, id);
  return rebuilt;
}

/** An own, enumerable property, also when the key is "__proto__" (assignment would set the prototype). */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
