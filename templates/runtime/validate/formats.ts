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

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
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

/** Every format the generated validators know, by its JSON Schema name. */
export const formats: Readonly<Record<string, (value: string) => boolean>> = {
  date,
  time,
  "date-time": dateTime,
  email,
  uuid,
  hostname,
  ipv4,
  ipv6,
  uri,
  duration,
};
