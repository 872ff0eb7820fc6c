// What `generate` printed on stderr besides its schema advice (docs/advice.md), for tests that
// check a run warned about nothing: advice is not a warning, and a schema that shows it (a
// vendor's API, a hostile fixture) may print it.
export function withoutAdvice(stderr: string): string {
  const kept: string[] = [];
  let inAdvice = false;
  for (const line of stderr.split("\n")) {
    if (line.startsWith("toolguard: advice for ")) inAdvice = true;
    else if (!line.startsWith("  ")) inAdvice = false;
    if (!inAdvice) kept.push(line);
  }
  return kept.join("\n");
}
