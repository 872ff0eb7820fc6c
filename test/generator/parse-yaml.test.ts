// YAML schema files (generator/load/parse-text.ts) are read with js-yaml when that gives what
// `yaml` gives, and with `yaml` otherwise: the YAML 1.2 core schema either way (a date stays a
// string, `yes` stays a string), duplicate keys refused, anchors and aliases through `yaml` and its
// alias limit, a `%YAML 1.1` directive honoured, and `yaml`'s error wording for bad syntax.
import { describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.ts";
import { parseSchemaText } from "../../generator/load/parse-text.ts";

const parse = (text: string): unknown => parseSchemaText("t.yaml", text);

describe("parseSchemaText on YAML", () => {
  it("reads the core schema: dates, yes/no and merge keys stay strings, numbers and nulls are typed", () => {
    expect(parse("a: 2020-01-01\nb: yes\nc: 0x1F\nd: ~\ne: .inf\n'<<': {x: 1}\n")).toEqual({
      a: "2020-01-01",
      b: "yes",
      c: 31,
      d: null,
      e: Number.POSITIVE_INFINITY,
      "<<": { x: 1 },
    });
  });

  it("refuses duplicate keys, naming the file", () => {
    expect(() => parse("a: 1\na: 2\n")).toThrow(InputError);
    expect(() => parse("a: 1\na: 2\n")).toThrow(/not valid YAML/);
  });

  it("expands anchors and aliases, within the alias limit", () => {
    expect(parse("a: &x {t: 1}\nb: *x\n")).toEqual({ a: { t: 1 }, b: { t: 1 } });
    // Langfuse's openapi.yml repeats one small `security` anchor 155 times: a real description, read.
    const repeated = ["a: &a [x]", ...Array.from({ length: 155 }, (_, index) => `b${index}: *a`)].join("\n");
    expect((parse(repeated) as Record<string, unknown>).b154).toEqual(["x"]);
    const flat = ["a: &a [x]", ...Array.from({ length: 1200 }, (_, index) => `b${index}: *a`)].join("\n");
    expect(() => parse(flat)).toThrow(/not valid YAML: .*alias/);
    // Exponential expansion is refused at its fourth level, whatever the bound's exact value.
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 10; level++) lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(", ")}]`);
    expect(() => parse(lines.join("\n"))).toThrow(/not valid YAML: .*alias/);
  });

  it("honours a %YAML 1.1 directive", () => {
    expect(parse("%YAML 1.1\n---\na: yes\n")).toEqual({ a: true });
  });

  it("reads what js-yaml refuses as yaml does: an empty file", () => {
    expect(parse("")).toBeNull();
    expect(parse("# only a comment\n")).toBeNull();
  });

  it("words syntax errors as yaml does", () => {
    expect(() => parse("a: [unclosed\n")).toThrow(/not valid YAML: Flow sequence in block collection/);
  });
});
