// The query string of a request, per each query parameter's style (form by default) and
// explode, with the checks that keep an object's keys from posing as other parameters or as
// structure a server's query parser reads.
import type { HttpBinding, HttpParameter } from "../contract/tool-spec.ts";
import { isRecord, scalar } from "./parameter-values.ts";
import { UnsafeRequestError } from "./unsafe-request.ts";

/**
 * The query string, pair by pair. An exploded object's keys become parameter names of their
 * own, so none may be the name of another query parameter or a key sent already: the model
 * would override a value the schema checked (`filter: {limit: 100000}` beside `limit: 5`).
 */
export class QueryBuilder {
  readonly pairs: string[] = [];
  readonly #binding: HttpBinding;
  readonly #names = new Set<string>();

  constructor(binding: HttpBinding) {
    this.#binding = binding;
    for (const parameter of binding.parameters) if (parameter.in === "query") this.#names.add(parameter.name);
  }

  add(parameter: HttpParameter, value: unknown): void {
    const style = parameter.style ?? "form";
    const explode = parameter.explode ?? style === "form";
    if (style !== "deepObject" && explode && isRecord(value)) {
      for (const key of Object.keys(value)) {
        if (this.#names.has(key)) {
          throw new UnsafeRequestError(
            this.#binding,
            `the key ${JSON.stringify(key.slice(0, 40))} of query parameter ${parameter.name} would be sent as a query parameter of that name`,
          );
        }
        this.#names.add(key);
      }
    }
    if (style === "deepObject") checkDeepKeys(this.#binding, parameter.name, value);
    this.pairs.push(...queryPairs(parameter, value));
  }
}

/** Query pairs, already encoded, per the parameter's style (form by default) and explode. */
function queryPairs(parameter: HttpParameter, value: unknown): string[] {
  const style = parameter.style ?? "form";
  const explode = parameter.explode ?? style === "form";
  const name = encodeURIComponent(parameter.name);
  const pair = (key: string, item: unknown): string => `${encodeURIComponent(key)}=${encodeURIComponent(scalar(item))}`;
  if (style === "deepObject") return deepObject(parameter.name, value);
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => `${name}=${encodeURIComponent(scalar(item))}`);
    const separator = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ",";
    return [`${name}=${value.map((item) => encodeURIComponent(scalar(item))).join(separator)}`];
  }
  if (isRecord(value)) {
    if (explode) return Object.entries(value).map(([key, item]) => pair(key, item));
    const separator = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ",";
    return [
      `${name}=${Object.entries(value)
        .flatMap(([key, item]) => [encodeURIComponent(key), encodeURIComponent(scalar(item))])
        .join(separator)}`,
    ];
  }
  return [`${name}=${encodeURIComponent(scalar(value))}`];
}

/** `deepObject`: `filter[status]=open`; nested objects nest the brackets, arrays repeat the key. */
function deepObject(prefix: string, value: unknown): string[] {
  if (value === null) return [];
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => deepObject(`${prefix}[${key}]`, item));
  if (Array.isArray(value)) return value.flatMap((item) => deepObject(prefix, item));
  return [`${encodeURIComponent(prefix)}=${encodeURIComponent(scalar(value))}`];
}

/** Keys a server's query parser would read as structure or as an object's prototype. */
const STRUCTURAL_KEY = /[[\]]|^(?:__proto__|constructor|prototype)$/;

function checkDeepKeys(binding: HttpBinding, name: string, value: unknown): void {
  if (Array.isArray(value)) for (const item of value) checkDeepKeys(binding, name, item);
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (STRUCTURAL_KEY.test(key))
      throw new UnsafeRequestError(
        binding,
        `query parameter ${name} has the key ${JSON.stringify(key.slice(0, 40))}, which a server would read as structure or as a prototype`,
      );
    checkDeepKeys(binding, name, value[key]);
  }
}
