// Writes one value at a JSON Pointer that is known to exist (a recorded coercion's path).
import { pointerTokens } from "../json/json-pointer.ts";

export function setAt(document: unknown, pointer: string, value: unknown): void {
  const tokens = pointerTokens(pointer);
  const last = tokens.pop();
  let node: unknown = document;
  for (const token of tokens) node = (node as Record<string, unknown>)[token];
  if (last !== undefined && node !== null && typeof node === "object") {
    Object.defineProperty(node, last, { value, writable: true, enumerable: true, configurable: true });
  }
}
