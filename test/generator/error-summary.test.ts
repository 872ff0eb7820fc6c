// Many errors with one cause are led by one line naming the cause, its count and files.
import { describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../generator/errors.ts";

describe("InputErrors.format", () => {
  it("leads with one line per cause shared by three or more errors", () => {
    const same = (file: string) => new InputError({ file, pointer: "" }, "not a tool file: no `name`", "give the tool a name");
    const errors = new InputErrors([
      same("a.yaml"),
      same("b.yaml"),
      new InputError({ file: "c.yaml", pointer: "/x" }, "other", "fix it"),
      same("d.yaml"),
      same("e.yaml"),
    ]);
    const lines = errors.format().split("\n");
    expect(lines[0]).toBe("4 problems share one cause: not a tool file: no `name` (in a.yaml, b.yaml, d.yaml and 1 more files)");
    expect(lines[1]).toBe("  fix: give the tool a name");
    expect(lines).toContain("c.yaml#/x: other");
  });

  it("two errors with one cause are listed as they are", () => {
    const same = (file: string) => new InputError({ file, pointer: "" }, "m", "f");
    expect(new InputErrors([same("a"), same("b")]).format()).toBe("a: m\n  fix: f\nb: m\n  fix: f");
  });
});
