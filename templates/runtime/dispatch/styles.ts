// OpenAPI's serialisation styles for one value, shared by the path, the query and the headers.

export type Encode = (text: string) => string;

export function scalar(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `simple` style: `a,b,c`; objects `k,v,k,v`, or `k=v,k=v` exploded. */
export function simple(value: unknown, explode: boolean, encode: Encode): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(",");
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([key, item]) => (explode ? `${encode(key)}=${encode(scalar(item))}` : `${encode(key)},${encode(scalar(item))}`))
      .join(",");
  }
  return encode(scalar(value));
}
