// One canonical example per format: what an error message shows when the schema gives none.
// The generator puts it into the hint table; the explainer falls back to it for a hint without
// an example. One table, so the two never disagree.

export const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: "2026-01-31",
  "date-time": "2026-01-31T09:30:00Z",
  time: "09:30:00Z",
  email: "name@example.com",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  uri: "https://example.com/path",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  duration: "P1DT2H",
};
