// The `format` checks generated validators call. The generator compiles schemas against these
// very functions, so generation and run time agree. Each is a linear-time check on a string;
// non-strings pass (the `type` keyword judges them).

const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 full-date: a real calendar day, so `2026-02-30` fails. */
export function date(value: string): boolean {
  // Read digit by digit: a regular expression with three captures and three Number() calls
  // cost ~150 ns a date, most of a small invoice's validation.
  if (value.length !== 10 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS[month - 1] ?? 0));
}

/** The number spelled by the ASCII digits `text[from..to)`, or -1 if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** RFC 3339 full-time with a mandatory offset (leap second 23:59:60 accepted). */
export function time(value: string): boolean {
  const match = TIME.exec(value);
  if (!match) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const offsetHour = Number(match[5] ?? 0);
  const offsetMinute = Number(match[6] ?? 0);
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  // A leap second is 23:59:60 in UTC, whatever the local offset says.
  const sign = match[4] === "-" ? -1 : 1;
  const utcMinutes = hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute);
  return second === 60 && (utcMinutes === -1 || utcMinutes === 1439);
}

/** RFC 3339 date-time: `T` (or `t`/space-free) between a valid date and time. */
export function dateTime(value: string): boolean {
  const at = value.search(/[tT]/);
  return at === 10 && date(value.slice(0, 10)) && time(value.slice(11));
}

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;

export function email(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function uuid(value: string): boolean {
  return UUID.test(value);
}

export function hostname(value: string): boolean {
  return HOSTNAME.test(value);
}

export function ipv4(value: string): boolean {
  return IPV4.test(value);
}

export function ipv6(value: string): boolean {
  // The URL parser is the platform's own, linear-time IPv6 grammar.
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(":")) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** An absolute URI: a scheme and no whitespace, parseable by the platform's URL parser. */
export function uri(value: string): boolean {
  if (!URI_SCHEME.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export function duration(value: string): boolean {
  return DURATION.test(value);
}

/** RFC 3986 URI-reference: only its characters, every `%` starting an escape, and a valid scheme if any. */
const URI_REFERENCE_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
/** RFC 3987 adds the Unicode ranges (ucschar, iprivate) to the same grammar. */
const IRI_REFERENCE_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef\u{10000}-\u{10fffd}\ue000-\uf8ff]*$/u;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const SCHEME_PREFIX = /^[^/?#]*:/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function referenceShape(value: string, chars: RegExp): boolean {
  return chars.test(value) && !BAD_ESCAPE.test(value) && (!SCHEME_PREFIX.test(value) || SCHEME.test(value));
}

export function uriReference(value: string): boolean {
  return referenceShape(value, URI_REFERENCE_CHARS);
}

export function iriReference(value: string): boolean {
  return referenceShape(value, IRI_REFERENCE_CHARS);
}

/** An absolute IRI: an IRI-reference with a scheme. */
export function iri(value: string): boolean {
  return SCHEME.test(value) && iriReference(value);
}

/** RFC 6570: literals, and expressions `{op var[:n|*], ...}`. */
const URI_TEMPLATE = /^(?:[^\u0000-\u0020"'<>\\^`{|}]|\{[+#./;?&=,!@|]?[A-Za-z0-9_.%]+(?::[1-9]\d{0,3}|\*)?(?:,[A-Za-z0-9_.%]+(?::[1-9]\d{0,3}|\*)?)*\})*$/;

export function uriTemplate(value: string): boolean {
  return URI_TEMPLATE.test(value);
}

/** What the URL parser would read as something other than a host name. */
const NOT_HOST = /[\s/?#@:%\\[\]]/;

/** An internationalised host name: its ASCII (punycode) form, as the platform converts it, is a host name. */
export function idnHostname(value: string): boolean {
  if (value === "" || value.length > 253 || NOT_HOST.test(value)) return false;
  try {
    return hostname(new URL(`http://${value}/`).hostname);
  } catch {
    return false;
  }
}

const LOCAL_PART = /^[^\s\u0000-\u001f\u007f@"(),:;<>[\]\\]{1,64}$/u;

/** An internationalised email address: a local part without separators, `@`, an idn-hostname. */
export function idnEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0 || value.length > 254) return false;
  const local = value.slice(0, at);
  return LOCAL_PART.test(local) && !local.startsWith(".") && !local.endsWith(".") && !local.includes("..") && idnHostname(value.slice(at + 1));
}

const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9]\d*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;

export function jsonPointer(value: string): boolean {
  return JSON_POINTER.test(value);
}

export function relativeJsonPointer(value: string): boolean {
  return RELATIVE_JSON_POINTER.test(value);
}

/** An ECMAScript regular expression (the dialect JSON Schema names), compiled, never run. */
export function regex(value: string): boolean {
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** OpenAPI `byte`: base64 as RFC 4648 writes it. */
export function byte(value: string): boolean {
  return BASE64.test(value);
}

/** A format on numbers, in the form ajv takes: it applies to numbers only. */
export interface NumberFormat {
  readonly type: "number";
  readonly validate: (value: number) => boolean;
}

const FLOAT_MAX = 3.4028234663852886e38;

/** OpenAPI's number widths. int64 stops at 2^53: a larger integer cannot arrive intact in JSON. */
export const int32: NumberFormat = { type: "number", validate: (value) => Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 };
export const int64: NumberFormat = { type: "number", validate: (value) => Number.isSafeInteger(value) };
export const float: NumberFormat = { type: "number", validate: (value) => Number.isFinite(value) && Math.abs(value) <= FLOAT_MAX };
export const double: NumberFormat = { type: "number", validate: (value) => Number.isFinite(value) };

/** Every format the generated validators assert, by its name. */
export const formats: Readonly<Record<string, ((value: string) => boolean) | NumberFormat>> = {
  date,
  time,
  "date-time": dateTime,
  email,
  "idn-email": idnEmail,
  uuid,
  hostname,
  "idn-hostname": idnHostname,
  ipv4,
  ipv6,
  uri,
  "uri-reference": uriReference,
  iri,
  "iri-reference": iriReference,
  "uri-template": uriTemplate,
  "json-pointer": jsonPointer,
  "relative-json-pointer": relativeJsonPointer,
  regex,
  duration,
  byte,
  int32,
  int64,
  float,
  double,
};
