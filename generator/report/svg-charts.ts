// The page's charts as hand-written SVG: a few hundred lines instead of a charting library
// inlined into every page (the smallest well-kept ones are 50-200 kB minified, with a licence
// to carry along), and plain markup a test can read number by number. Every text goes through
// `escapeHtml`; every number is written with a fixed precision, so the page is deterministic.

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** Colours of the three bands and of the outcomes (readable on white, distinct in greyscale). */
export const COLOURS = {
  healthy: "#e6f4ea",
  watch: "#fff4d6",
  defect: "#fde2e1",
  lines: ["#1f5fbf", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"],
  outcomes: { firstTime: "#15803d", repaired: "#60a5fa", exhausted: "#b91c1c", ambiguous: "#a16207", abandoned: "#9ca3af", open: "#d1d5db", other: "#6b7280" },
} as const;

const n = (value: number): string => (Math.round(value * 10) / 10).toString();

export interface Series {
  readonly name: string;
  /** [time in ms, failed calls per 1000]. */
  readonly points: readonly (readonly [number, number])[];
}

/**
 * Failed calls per 1000 over time, one line per series, over the healthy/watch/defect bands
 * (under `healthy`, up to `defect`, above). The y axis reaches at least 1.5x the defect band.
 */
export function rateChart(
  series: readonly Series[],
  healthy: number,
  defect: number,
  options: { width?: number; height?: number; axes?: boolean; label?: string } = {},
): string {
  const width = options.width ?? 760;
  const height = options.height ?? 260;
  const axes = options.axes ?? true;
  const left = axes ? 72 : 1;
  const bottom = axes ? 22 : 1;
  const top = axes ? 8 : 1;
  const right = axes ? 20 : 1;
  const times = series.flatMap((one) => one.points.map(([time]) => time));
  const minTime = times.length === 0 ? 0 : Math.min(...times);
  const maxTime = times.length === 0 ? 1 : Math.max(...times);
  const maxRate = Math.max(defect * 1.5, ...series.flatMap((one) => one.points.map(([, rate]) => rate)));
  const x = (time: number): number =>
    left + (maxTime === minTime ? (width - left - right) / 2 : ((time - minTime) / (maxTime - minTime)) * (width - left - right));
  const y = (rate: number): number => top + (1 - rate / maxRate) * (height - top - bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.label ?? "failed calls per 1000 over time")}">`,
    `<rect class="band-defect" x="${left}" y="${n(y(maxRate))}" width="${width - left - right}" height="${n(y(defect) - y(maxRate))}" fill="${COLOURS.defect}"/>`,
    `<rect class="band-watch" x="${left}" y="${n(y(defect))}" width="${width - left - right}" height="${n(y(healthy) - y(defect))}" fill="${COLOURS.watch}"/>`,
    `<rect class="band-healthy" x="${left}" y="${n(y(healthy))}" width="${width - left - right}" height="${n(y(0) - y(healthy))}" fill="${COLOURS.healthy}"/>`,
  ];
  if (axes) {
    for (const [rate, name] of [
      [healthy, `${healthy}‰ (1%)`],
      [defect, `${defect}‰ (5%)`],
      [maxRate, `${n(maxRate)}‰`],
      [0, "0"],
    ] as const)
      parts.push(`<text x="${left - 4}" y="${n(y(rate) + 4)}" text-anchor="end" font-size="10">${escapeHtml(name)}</text>`);
    for (const time of ticks(minTime, maxTime))
      parts.push(`<text x="${n(x(time))}" y="${height - 6}" text-anchor="middle" font-size="10">${new Date(time).toISOString().slice(5, 10)}</text>`);
  }
  series.forEach((one, index) => {
    const colour = COLOURS.lines[index % COLOURS.lines.length];
    const path = one.points.map(([time, rate], at) => `${at === 0 ? "M" : "L"}${n(x(time))},${n(y(rate))}`).join("");
    parts.push(
      `<path class="series" data-tool="${escapeHtml(one.name)}" d="${path}" fill="none" stroke="${colour}" stroke-width="${axes ? 1.8 : 1.2}"><title>${escapeHtml(one.name)}</title></path>`,
    );
  });
  parts.push("</svg>");
  return parts.join("");
}

/** Up to 8 evenly spaced day ticks between two times. */
function ticks(from: number, to: number): number[] {
  if (to <= from) return [from];
  const day = 86_400_000;
  const step = Math.max(day, Math.ceil((to - from) / 8 / day) * day);
  const out: number[] = [];
  for (let time = Math.ceil(from / day) * day; time <= to; time += step) out.push(time);
  return out;
}

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Shown after the bar instead of the value. */
  readonly note?: string;
}

/** Horizontal bars, largest first as given, labels on the left. */
export function barChart(bars: readonly Bar[], options: { width?: number; label: string; colour?: string }): string {
  const width = options.width ?? 560;
  const row = 18;
  const labelWidth = 190;
  const valueWidth = 90;
  const height = Math.max(row, bars.length * row);
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.label)}">`,
  ];
  bars.forEach((bar, index) => {
    const length = ((width - labelWidth - valueWidth) * bar.value) / max;
    const at = index * row;
    parts.push(
      `<g class="bar" data-label="${escapeHtml(bar.label)}" data-value="${bar.value}">`,
      `<text x="${labelWidth - 6}" y="${at + 13}" text-anchor="end" font-size="11">${escapeHtml(cut(bar.label, 30))}</text>`,
      `<rect x="${labelWidth}" y="${at + 3}" width="${n(Math.max(1, length))}" height="${row - 6}" fill="${options.colour ?? COLOURS.lines[0]}"><title>${escapeHtml(bar.label)}: ${bar.value}</title></rect>`,
      `<text x="${n(labelWidth + length + 4)}" y="${at + 13}" font-size="11">${escapeHtml(bar.note ?? String(bar.value))}</text>`,
      "</g>",
    );
  });
  parts.push("</svg>");
  return parts.join("");
}

export interface Segment {
  readonly name: string;
  readonly value: number;
  readonly colour: string;
}

/** One bar split into segments in proportion (repair outcomes of a tool). */
export function stackedBar(segments: readonly Segment[], options: { width?: number; height?: number; label: string }): string {
  const width = options.width ?? 220;
  const height = options.height ?? 12;
  const total = segments.reduce((sum, one) => sum + one.value, 0);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.label)}">`,
  ];
  let x = 0;
  for (const segment of segments) {
    if (segment.value === 0 || total === 0) continue;
    const length = (width * segment.value) / total;
    parts.push(
      `<rect class="segment" data-name="${segment.name}" data-value="${segment.value}" x="${n(x)}" y="0" width="${n(length)}" height="${height}" fill="${segment.colour}"><title>${escapeHtml(segment.name)}: ${segment.value}</title></rect>`,
    );
    x += length;
  }
  parts.push("</svg>");
  return parts.join("");
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
