// What every generated tool module calls: binds the build-time spec to the guard, and wraps the
// guarded call in its span (a no-op without an OpenTelemetry SDK).
import type { DescribedTool, ImplementOptions, Implementation, ToolDefinition } from "../contract/api.ts";
import type { ToolSpec } from "../contract/tool-spec.ts";
import { createGuard } from "./guard.ts";
import { sharedChainCall } from "./shared-chain-call.ts";
import { defaultLedger } from "../ledger/default-ledger.ts";
import { traced } from "../telemetry/tracing.ts";

export function defineTool<Args, Resolved = Args, Kinds extends string = never>(spec: ToolSpec): ToolDefinition<Args, Resolved, Kinds> {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    http: spec.http,
    implement<Result>(
      implementation: Implementation<Resolved, Result>,
      ...rest: [options?: ImplementOptions<Kinds, Args, Resolved>]
    ): DescribedTool<Result, Resolved> {
      const options = rest[0];
      const guarded = createGuard<Resolved, Result>(spec, implementation, options as ImplementOptions<Kinds, never, Resolved> | undefined);
      const own = (raw: unknown, context: Parameters<typeof guarded.call>[1]) => guarded.call(raw, context);
      // `chains`: the turn's chain counted across replicas too (shared-chain-call.ts).
      const call = options?.chains === undefined ? own : sharedChainCall(spec.name, own, options.chains, () => options.ledger ?? defaultLedger());
      // `check` is not traced: it is the synchronous path, for callers that run their own code.
      return {
        name: guarded.name,
        description: spec.description,
        inputSchema: spec.inputSchema,
        call: traced(guarded.telemetry, call, options?.trace),
        check: (raw, context) => guarded.check(raw, context),
        ready: () => guarded.ready(),
      };
    },
  } as ToolDefinition<Args, Resolved, Kinds>;
}
