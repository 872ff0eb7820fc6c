// Where the guard's warnings for operators go (telemetry/alarm.ts writes them): a type only, so
// that the public API and the runtime share it without a cycle.

/**
 * A logger the guard warns through: `console` fits as it is, and so does winston's logger
 * (`logger.warn(message, meta)`). For pino, whose `warn` takes the fields first, pass
 * `{ warn: (message, fields) => log.warn(fields, message) }`.
 */
export interface GuardLogger {
  /** One warning: a sentence for a person, and the same facts as fields for a log query. */
  warn(message: string, fields: Readonly<Record<string, string | number>>): void;
}
