// The path-argument check's first look, written per tool (contract/tool-spec.ts
// `HazardWalk.plainPath`): whether every argument that goes into the request's URL path is a
// number or a non-empty string without `.` or `%`, the common case in which no segment can be
// empty or resolve away. Each argument's look remembers the last value it found plain
// (`PlainArgument`), so a call repeating it reads none of its characters. The runtime has the same look over the binding's names
// (call/path-arguments.ts `plainPathArguments`, its twin in the tests); it reads each argument by
// a variable key, where the printed look reads it by name. Anything else goes to the runtime's
// full check (`pathArgumentErrors`), which builds the path and says what is wrong.
import type { HttpBinding } from "../../templates/runtime/contract/tool-spec.ts";
import { pathArgumentNames } from "../../templates/runtime/call/path-arguments.ts";
import { Code, isSafeIdentifier, literal } from "../safe-emit.ts";

/** The runtime helper the printed look calls. */
export const PATH_PROBE_IMPORT = 'import { PlainArgument } from "../runtime/call/path-arguments.js";';

/**
 * The look at `http`'s path arguments, or undefined when the tool has none: one `PlainArgument`
 * per argument, in the binding's order (each remembers the last value it found plain).
 */
export function plainPathProbe(http: HttpBinding | undefined): Code | undefined {
  const names = pathArgumentNames(http);
  if (names.length === 0) return undefined;
  const looks = names.map((_, index) => `look${index} = new PlainArgument()`);
  const reads = names.map((name, index) => `look${index}.holds(${isSafeIdentifier(name) ? `value.${name}` : `value[${literal(name).text}]`})`);
  return new Code(`((${looks.join(", ")}) => (value) => typeof value === "object" && value !== null && ${reads.join(" && ")})()`);
}
