// An operation's parameters: the path item's and the operation's own (the operation's win for
// the same name and location), `$ref`s resolved, each given the argument name it travels under.
import { InputError } from "../../errors.ts";

import { Untranslatable } from "./untranslatable.ts";
import { resolvePointer } from "../../json-pointer.ts";

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface OperationParameter {
  /** The argument property carrying it: the config's name for it (`argumentNames`), else `x-toolguard-arg`, else its name. */
  readonly arg: string;
  readonly name: string;
  readonly in: ParameterLocation;
  readonly style: string;
  readonly explode: boolean;
  readonly required: boolean;
  /** The parameter object, `$ref` resolved. */
  readonly object: Readonly<Record<string, unknown>>;
  /** JSON Pointer of the parameter object in the document. */
  readonly pointer: string;
}

/** The config's argument names for one operation's parameters, by "<in>.<name>" (config `argumentNames`). */
export interface ArgumentRenames {
  get(parameter: string): string | undefined;
  /** Records that a parameter of the set answered to the entry (for the summary's unused-entry note). */
  used(parameter: string): void;
}

/** Names the operation in errors: `createPet (POST /pets)`. */
export interface OperationContext {
  readonly file: string;
  readonly label: string;
  /** The tool's name, for the config fix in errors. */
  readonly tool?: string;
  readonly renames?: ArgumentRenames;
}

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
const DEFAULT_STYLE: Readonly<Record<ParameterLocation, string>> = { path: "simple", query: "form", header: "simple", cookie: "form" };
const STYLES: Readonly<Record<ParameterLocation, readonly string[]>> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};
// OpenAPI: header parameters with these names "SHALL be ignored"; the dispatcher sets them.
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

export function operationParameters(
  document: unknown,
  lists: readonly { readonly list: unknown; readonly pointer: string }[],
  context: OperationContext,
): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const { list, pointer } of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new InputError({ file: context.file, pointer }, `operation ${context.label}: \`parameters\` must be an array`, "list the parameters as an array");
    const seen = new Set<string>();
    list.forEach((entry, index) => {
      const parameter = readParameter(document, entry, `${pointer}/${index}`, context);
      if (parameter === undefined) return;
      const key = `${parameter.in}:${parameter.in === "header" ? parameter.name.toLowerCase() : parameter.name}`;
      if (seen.has(key)) {
        throw new InputError(
          { file: context.file, pointer: parameter.pointer },
          `operation ${context.label}: ${parameter.in} parameter "${parameter.name}" is declared twice`,
          "remove the duplicate; OpenAPI identifies a parameter by its name and location",
        );
      }
      seen.add(key);
      byKey.set(key, parameter);
    });
  }
  const parameters = [...byKey.values()];
  checkArgumentNames(parameters, context);
  return parameters.sort((a, b) => LOCATIONS.indexOf(a.in) - LOCATIONS.indexOf(b.in));
}

function readParameter(document: unknown, entry: unknown, at: string, context: OperationContext): OperationParameter | undefined {
  let object = entry;
  let pointer = at;
  for (let hops = 0; isObject(object) && typeof object.$ref === "string"; hops++) {
    const ref = object.$ref;
    if (!ref.startsWith("#/") || hops > 16)
      throw new InputError(
        { file: context.file, pointer: `${pointer}/$ref` },
        `operation ${context.label}: parameter $ref "${ref}" cannot be followed`,
        "point the $ref at a parameter under #/components/parameters",
      );
    pointer = decodeURIComponent(ref.slice(1));
    object = resolvePointer(document, pointer);
    if (object === undefined)
      throw new InputError(
        { file: context.file, pointer: `${at}/$ref` },
        `operation ${context.label}: dangling $ref "${ref}"`,
        "point the $ref at an existing parameter",
      );
  }
  // OpenAPI 3.2's `in: querystring` describes the whole query string as one value (by `content`):
  // the dispatcher writes a query string only from parameters, one per name.
  if (isObject(object) && object.in === "querystring")
    throw new Untranslatable(`${pointer}/in`, "a `querystring` parameter (the whole query string as one value, OpenAPI 3.2) is not sent by the dispatcher");
  if (!isObject(object) || typeof object.name !== "string" || !LOCATIONS.includes(object.in as ParameterLocation)) {
    throw new InputError(
      { file: context.file, pointer },
      `operation ${context.label}: a parameter needs a string \`name\` and \`in\` of path, query, header or cookie`,
      "complete the parameter object",
    );
  }
  const location = object.in as ParameterLocation;
  // A header or cookie name travels raw: anything but an RFC 9110 token (CR, LF, `:`, `=`,
  // spaces) would break the request's framing or let the name carry another header.
  if ((location === "header" || location === "cookie") && !HTTP_TOKEN.test(object.name)) {
    throw new InputError(
      { file: context.file, pointer: `${pointer}/name` },
      `operation ${context.label}: ${location} parameter name ${JSON.stringify(object.name.slice(0, 60))} is not a valid HTTP token`,
      "use letters, digits and !#$%&'*+.^_`|~- only",
    );
  }
  if (location === "header" && IGNORED_HEADERS.has(object.name.toLowerCase())) return undefined;
  const style = typeof object.style === "string" ? object.style : DEFAULT_STYLE[location];
  if (!STYLES[location].includes(style)) throw new Untranslatable(`${pointer}/style`, `style "${style}" is not defined for ${location} parameters`);
  // The user's config wins over the vendor's file: it is the way round a file they cannot edit.
  const renamed = context.renames?.get(`${location}.${object.name}`);
  if (renamed !== undefined) context.renames?.used(`${location}.${object.name}`);
  const arg = renamed ?? (typeof object["x-toolguard-arg"] === "string" ? object["x-toolguard-arg"] : object.name);
  return {
    arg,
    name: object.name,
    in: location,
    style,
    explode: typeof object.explode === "boolean" ? object.explode : style === "form",
    required: location === "path" || object.required === true,
    object,
    pointer,
  };
}

// Arguments are keyed by parameter name, so two parameters sharing a name in different
// locations (legal in OpenAPI) would collide; the user picks the argument name for one of them.
function checkArgumentNames(parameters: readonly OperationParameter[], context: OperationContext): void {
  const byArg = new Map<string, OperationParameter>();
  for (const parameter of parameters) {
    const other = byArg.get(parameter.arg);
    if (other) {
      throw new InputError(
        { file: context.file, pointer: parameter.pointer },
        `operation ${context.label}: parameters ${describe(other)} and ${describe(parameter)} both become argument "${parameter.arg}"`,
        `rename one in the config, without editing the document: "argumentNames": {${JSON.stringify(context.tool ?? "<operationId>")}: {${JSON.stringify(`${parameter.in}.${parameter.name}`)}: "${parameter.in}_${parameter.arg}"}} in the set; or set "x-toolguard-arg" on one of them to a different argument name (at ${other.pointer} or ${parameter.pointer})`,
      );
    }
    byArg.set(parameter.arg, parameter);
  }
}

function describe(parameter: OperationParameter): string {
  return `${parameter.in} "${parameter.name}"`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
