// What a call's trace may record beyond names and outcomes (telemetry/tracing.ts records it):
// a type only, so that the public API and the tracer share it without a cycle.

/** What the traces may carry beyond names and outcomes. */
export interface TraceOptions {
  /**
   * Record the model's raw arguments on the span (`gen_ai.tool.call.arguments`). Off by default:
   * arguments may hold personal data or secrets.
   */
  readonly arguments?: boolean;
}
