// What every generated tool module calls: binds the build-time spec to the guard.
import type { ImplementOptions, Implementation, ToolDefinition } from "../contract/api.ts";
import type { ToolSpec } from "../contract/tool-spec.ts";
import { createGuard } from "./guard.ts";

export function defineTool<Args, Resolved = Args, Kinds extends string = never>(spec: ToolSpec): ToolDefinition<Args, Resolved, Kinds> {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    http: spec.http,
    implement<Result>(implementation: Implementation<Resolved, Result>, ...rest: [options?: ImplementOptions<Kinds>]) {
      return createGuard<Resolved, Result>(spec, implementation, rest[0]);
    },
  } as ToolDefinition<Args, Resolved, Kinds>;
}
