// Step 4's result written into the arguments: each reference field replaced by its target
// property holding the identifier the resolver gave.
import type { Resolution } from "../contract/resolution.ts";
import type { ReferenceRewrite } from "../contract/tool-spec.ts";
import { pointerTokens } from "../json/json-pointer.ts";

/**
 * Writes the resolutions into the arguments: each reference field is replaced by its target
 * property holding the identifier, so the implementation never sees the model's text. Returns
 * the arguments: an object that held a reference field is rebuilt without it rather than
 * `delete`d from, which would leave it a slow dictionary-mode object for the rest of the call.
 * `rewriteAt` gives the tool's generated rewrite for a field's tokens, if it has one: the same
 * object, built faster.
 */
export function applyResolutions(
  value: unknown,
  resolutions: readonly Resolution[],
  rewriteAt?: (tokens: readonly string[]) => ReferenceRewrite | undefined,
): unknown {
  let root = value;
  for (const resolution of resolutions) {
    const tokens = pointerTokens(resolution.path);
    const rewrite = rewriteAt?.(tokens);
    const field = tokens.pop() as string;
    let holder: Record<string, unknown> | undefined;
    let node: unknown = root;
    for (const token of tokens) {
      holder = node as Record<string, unknown>;
      node = holder[token];
    }
    const holderObject = node as Record<string, unknown>;
    const rebuilt = rewrite ? rewrite(holderObject, resolution.id) : withoutField(holderObject, field, resolution.target, resolution.id);
    if (holder === undefined) root = rebuilt;
    else putOwn(holder, tokens[tokens.length - 1] as string, rebuilt);
  }
  return root;
}

/** `parent` rebuilt without `field`, with `target` set to `id`. */
export function withoutField(parent: Record<string, unknown>, field: string, target: string, id: string): Record<string, unknown> {
  const rebuilt: Record<string, unknown> = {};
  for (const key of Object.keys(parent)) {
    if (key === field) continue;
    if (key === "__proto__") putOwn(rebuilt, key, parent[key]);
    else rebuilt[key] = parent[key];
  }
  putOwn(rebuilt, target, id);
  return rebuilt;
}

/**
 * An own, enumerable property, also when the key is "__proto__" (assignment would set the
 * prototype). Generated rewrites (`ReferenceRewrite`) store keys they do not name through it.
 */
export function putOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
