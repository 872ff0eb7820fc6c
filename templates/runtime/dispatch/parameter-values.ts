// OpenAPI's style and explode rules for a path or header parameter's value (`simple`, `label`,
// `matrix`), and the value conversions the query string shares with them.
import type { HttpBinding, HttpParameter } from "../contract/tool-spec.ts";
import { UnsafeRequestError } from "./unsafe-request.ts";

export type Encode = (text: string) => string;

export function scalar(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A query, header or cookie value with its nulls left out: `undefined` for `null` (an OpenAPI
 * 3.0 `nullable` optional parameter sent as null is not sent, rather than sent empty), and an
 * array's null items and an object's null members dropped (`deepObject` drops them at every
 * depth). A path parameter is required, so a null there stays empty and is refused.
 */
export function presentValue(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.includes(null) ? value.filter((item) => item !== null) : value;
  if (!isRecord(value) || !Object.values(value).includes(null)) return value;
  // fromEntries defines own properties, so a `__proto__` key stays a key.
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null));
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

/**
 * A header parameter's value. Fetch refuses CR, LF and characters above U+00FF, and a list's
 * `,` and `=` separate items: so `%`, controls, non-ASCII characters and, inside lists and
 * objects, `,` and `=` are percent-encoded (UTF-8). Plain values travel as they are.
 */
export function headerValue(value: unknown, explode: boolean): string {
  if (!Array.isArray(value) && !isRecord(value)) return headerText(scalar(value), false);
  return simple(value, explode, (text) => headerText(text, true));
}

function headerText(text: string, inList: boolean): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const unsafe = code < 0x20 || code > 0x7e || char === "%" || (inList && (char === "," || char === "="));
    out += unsafe && code !== 0x09 ? utf8Escape(char) : char;
  }
  return out;
}

function utf8Escape(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return "%EF%BF%BD"; // a lone surrogate: the replacement character
  }
}

export function pathValue(binding: HttpBinding, parameter: HttpParameter, value: unknown): string {
  const explode = parameter.explode ?? false;
  const encode: Encode = encodeURIComponent;
  const text = scalar(value);
  if (!Array.isArray(value) && !isRecord(value) && text === "")
    throw new UnsafeRequestError(binding, `path parameter ${parameter.name} is empty, which addresses a different resource`, parameter.arg);
  switch (parameter.style ?? "simple") {
    case "label": {
      // `.` separates a label's items: one inside an item is encoded, so `.` never becomes `..`.
      const labelEncode: Encode = (item) => encodeURIComponent(item).replaceAll(".", "%2E");
      if (!explode || (!Array.isArray(value) && !isRecord(value))) return `.${simple(value, explode, labelEncode)}`;
      return `.${simple(value, true, labelEncode).replaceAll(",", ".")}`;
    }
    case "matrix": {
      const name = encode(parameter.name);
      if (Array.isArray(value)) {
        return explode ? value.map((item) => `;${name}=${encode(scalar(item))}`).join("") : `;${name}=${simple(value, false, encode)}`;
      }
      if (isRecord(value)) {
        return explode
          ? Object.entries(value)
              .map(([key, item]) => `;${encode(key)}=${encode(scalar(item))}`)
              .join("")
          : `;${name}=${simple(value, false, encode)}`;
      }
      return value === null || value === "" ? `;${name}` : `;${name}=${encode(scalar(value))}`;
    }
    default:
      return simple(value, explode, encode);
  }
}
