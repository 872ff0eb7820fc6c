// Counters through the OpenTelemetry API only: without an SDK registered they are no-ops, so no
// exporter is forced on users. `validation_failed` by tool, rule and class is the schema-quality
// signal; the repair counters show whether the error envelopes work.
import { metrics, type Counter } from "@opentelemetry/api";
import type { ArgumentError, FailureClass } from "./outcome.ts";

const meter = metrics.getMeter("toolguard");

const calls: Counter = meter.createCounter("toolguard.calls", { description: "Tool calls received by the guard, per attempt" });
const validationFailed: Counter = meter.createCounter("toolguard.validation_failed", {
  description: "Argument errors per attempt, by tool, rule and failure class",
});
const repairSucceeded: Counter = meter.createCounter("toolguard.repair_succeeded", {
  description: "Repair chains that ended with valid arguments after at least one repair",
});
const repairExhausted: Counter = meter.createCounter("toolguard.repair_exhausted", {
  description: "Repair chains refused because the repair budget was spent",
});

export function countCall(tool: string): void {
  calls.add(1, { tool });
}

export function countFailure(tool: string, failure: FailureClass, errors: readonly ArgumentError[]): void {
  for (const error of errors) validationFailed.add(1, { tool, rule: error.rule, failure });
}

export function countRepairSucceeded(tool: string): void {
  repairSucceeded.add(1, { tool });
}

export function countRepairExhausted(tool: string): void {
  repairExhausted.add(1, { tool });
}
