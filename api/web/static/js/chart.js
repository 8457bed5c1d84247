// Small SVG charts: win rates with their intervals, and a histogram.
import { el, svg } from "./dom.js";

const WIDTH = 640;
const NARROWEST = 300;

/** The width to draw a chart at in `container` (shown, so that it has one): its own, up to 640, so the
 * labels keep their CSS size. A 640-wide drawing scaled into a phone's 360 px shrank 12 px text to 7. */
export function widthFor(container) {
  return Math.round(Math.min(WIDTH, Math.max(NARROWEST, container.clientWidth || WIDTH)));
}

/** Calls `draw` again when the window's width changes (a phone turned, a window resized), since a chart
 * is drawn at its box's width. */
export function redrawOnResize(draw) {
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    draw();
  });
}

/** One bar per row ({label, value, low, high} in 0..1) with its interval as a whisker. */
export function intervalBars(rows, { width = WIDTH } = {}) {
  const rowHeight = 28;
  const left = Math.min(170, Math.round(width * 0.4));
  const plot = width - left - 60;
  const height = rows.length * rowHeight + 30;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, className: "bars", role: "img" });
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const x = left + tick * plot;
    chart.append(svg("line", { x1: x, x2: x, y1: 0, y2: height - 20, className: "grid" }),
      svg("text", { x, y: height - 5, className: "tick", "text-anchor": "middle" }, `${tick * 100}%`));
  }
  rows.forEach((row, index) => {
    const y = index * rowHeight + 4;
    chart.append(
      svg("text", { x: left - 8, y: y + 15, className: "label", "text-anchor": "end" }, row.label),
      svg("rect", { x: left, y, width: Math.max(0.5, row.value * plot), height: rowHeight - 10, className: `bar seat-${index % 8}` },
        svg("title", {}, `${row.label}: ${(row.value * 100).toFixed(1)}% (95%: ${(row.low * 100).toFixed(1)}–${(row.high * 100).toFixed(1)}%)`)),
      svg("line", { x1: left + row.low * plot, x2: left + row.high * plot, y1: y + 9, y2: y + 9, className: "whisker" }),
      svg("text", { x: left + row.high * plot + 6, y: y + 14, className: "value" }, `${(row.value * 100).toFixed(1)}%`),
    );
  });
  return chart;
}

/** Bars of counts per bucket ({label, count}). */
export function histogram(buckets, { width: chartWidth = WIDTH } = {}) {
  const height = 220;
  const bottom = 30;
  const max = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const width = (chartWidth - 40) / Math.max(1, buckets.length);
  // A label is about 7 px a character at 12 px: show every nth so that neighbours do not run together.
  const labelWidth = 7 * Math.max(1, ...buckets.map((bucket) => bucket.label.length)) + 6;
  const every = Math.max(1, Math.ceil(labelWidth / width));
  const chart = svg("svg", { viewBox: `0 0 ${chartWidth} ${height}`, className: "histogram", role: "img" });
  buckets.forEach((bucket, index) => {
    const barHeight = ((height - bottom - 10) * bucket.count) / max;
    const x = 30 + index * width;
    chart.append(svg("rect", { x, y: height - bottom - barHeight, width: Math.max(1, width - 2), height: barHeight, className: "bar" },
      svg("title", {}, `${bucket.label}: ${bucket.count} games`)));
    if (index % every === 0) {
      chart.append(svg("text", { x: x + width / 2, y: height - 12, className: "tick", "text-anchor": "middle" }, bucket.label));
    }
  });
  return chart;
}

export function legend(text) {
  return el("p", { className: "muted" }, text);
}

/** Lines ({label, points: [{x, value, low, high, name}]}) with their intervals as shaded bands, a
 * dashed reference line (the base) and, for categorical x, the variants' names as ticks. */
export function lineBands(lines, { xLabel, ticks = null, reference = null, format = (v) => String(v), width = WIDTH }) {
  const height = 260;
  const left = 60;
  const bottom = 40;
  const plotWidth = width - left - 20;
  const plotHeight = height - bottom - 10;
  const points = lines.flatMap((line) => line.points);
  const xs = points.map((p) => p.x);
  const ys = points.flatMap((p) => [p.low, p.high]).concat(reference === null ? [] : [reference]);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const [yMin, yMax] = [Math.min(...ys), Math.max(...ys)];
  const sx = (x) => left + (xMax === xMin ? plotWidth / 2 : ((x - xMin) / (xMax - xMin)) * plotWidth);
  const sy = (y) => 10 + (yMax === yMin ? plotHeight / 2 : (1 - (y - yMin) / (yMax - yMin)) * plotHeight);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, className: "lines", role: "img" });
  for (const tick of [yMin, (yMin + yMax) / 2, yMax]) {
    chart.append(svg("line", { x1: left, x2: width - 20, y1: sy(tick), y2: sy(tick), className: "grid" }),
      svg("text", { x: left - 6, y: sy(tick) + 4, className: "tick", "text-anchor": "end" }, format(tick)));
  }
  const xTicks = ticks ? ticks.map((name, index) => [index, name]) : [...new Set(xs)].map((x) => [x, String(x)]);
  for (const [x, name] of xTicks) {
    chart.append(svg("text", { x: sx(x), y: height - bottom + 16, className: "tick", "text-anchor": "middle" }, name));
  }
  chart.append(svg("text", { x: left + plotWidth / 2, y: height - 6, className: "label", "text-anchor": "middle" }, xLabel));
  if (reference !== null) {
    chart.append(svg("line", { x1: left, x2: width - 20, y1: sy(reference), y2: sy(reference), className: "reference" },
      svg("title", {}, `base: ${format(reference)}`)));
  }
  lines.forEach((line, index) => {
    const sorted = [...line.points].sort((a, b) => a.x - b.x);
    const upper = sorted.map((p) => `${sx(p.x)},${sy(p.high)}`);
    const lower = sorted.map((p) => `${sx(p.x)},${sy(p.low)}`).reverse();
    chart.append(svg("polygon", { points: [...upper, ...lower].join(" "), className: `band seat-${index % 8}` }),
      svg("polyline", { points: sorted.map((p) => `${sx(p.x)},${sy(p.value)}`).join(" "), className: `line seat-${index % 8}` },
        svg("title", {}, line.label)));
    for (const p of sorted) {
      chart.append(svg("circle", { cx: sx(p.x), cy: sy(p.value), r: 3.5, className: `point seat-${index % 8}` },
        svg("title", {}, `${p.name}: ${format(p.value)} [${format(p.low)}, ${format(p.high)}]`)));
    }
  });
  return chart;
}

/** Every seat's win chance (0..1) at every version (`rows[version][seat]`), one line per seat; each version
 * is a clickable column, a link to `linkFor(version)` (the replay at that move), titled by `columnTitle`; without
 * `linkFor`, lines alone (x: the row's index, its tick `tickOf(index)`). */
export function chanceLines(rows, { width = WIDTH, linkFor = null, columnTitle = (v) => `move ${v}`, tickOf = String } = {}) {
  const height = 220;
  const left = 44;
  const bottom = 26;
  const plotWidth = width - left - 12;
  const plotHeight = height - bottom - 10;
  const last = Math.max(1, rows.length - 1);
  const sx = (v) => left + (v / last) * plotWidth;
  const sy = (p) => 10 + (1 - p) * plotHeight;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, className: "lines chances", role: "img" });
  for (const tick of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: left, x2: width - 12, y1: sy(tick), y2: sy(tick), className: "grid" }),
      svg("text", { x: left - 6, y: sy(tick) + 4, className: "tick", "text-anchor": "end" }, `${tick * 100}%`));
  }
  for (const v of [0, Math.round(last / 2), last]) {
    chart.append(svg("text", { x: sx(v), y: height - 8, className: "tick", "text-anchor": "middle" }, tickOf(v)));
  }
  const seats = rows.length ? rows[0].length : 0;
  for (let seat = 0; seat < seats; seat += 1) {
    const points = rows.map((row, v) => `${sx(v)},${sy(row[seat] ?? 0)}`).join(" ");
    chart.append(svg("polyline", { points, className: `line seat-${seat % 8}`, dataset: { seat } }));
  }
  if (!linkFor) return chart;
  // One link per version across the plot's height: a click anywhere above a move opens the replay there.
  const column = plotWidth / last;
  rows.forEach((row, v) => {
    chart.append(svg("a", { href: linkFor(v), className: "column", dataset: { version: v } },
      svg("rect", { x: sx(v) - column / 2, y: 10, width: column, height: plotHeight, className: "hit" }),
      svg("title", {}, `${columnTitle(v)}: ${row.map((p) => `${(p * 100).toFixed(0)}%`).join(" · ")}`)));
  });
  return chart;
}

const SPLIT_PARTS = ["skill", "luck", "others", "drift"];

/** The luck-skill split, one row per seat ({label, skill, luck, others, drift} in win-chance units): each
 * part a segment of a bar around a zero line, gains to the right and losses to the left, so the longest
 * colour says at a glance what moved the seat's chance. */
export function splitBars(rows, { width = WIDTH } = {}) {
  const rowHeight = 34;
  const left = Math.min(140, Math.round(width * 0.3));
  const plot = width - left - 16;
  const height = rows.length * rowHeight + 24;
  const reach = Math.max(0.05, ...rows.map((row) => Math.max(
    SPLIT_PARTS.reduce((sum, part) => sum + Math.max(0, row[part]), 0),
    SPLIT_PARTS.reduce((sum, part) => sum - Math.min(0, row[part]), 0))));
  const zero = left + plot / 2;
  const scale = (plot / 2) / reach;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, className: "split", role: "img" });
  chart.append(svg("line", { x1: zero, x2: zero, y1: 0, y2: height - 18, className: "reference" }),
    svg("text", { x: left, y: height - 4, className: "tick" }, `−${Math.round(reach * 100)}`),
    svg("text", { x: zero, y: height - 4, className: "tick", "text-anchor": "middle" }, "0"),
    svg("text", { x: left + plot, y: height - 4, className: "tick", "text-anchor": "end" }, `+${Math.round(reach * 100)}`));
  rows.forEach((row, index) => {
    const y = index * rowHeight + 4;
    chart.append(svg("text", { x: left - 8, y: y + 17, className: "label", "text-anchor": "end" }, row.label));
    let right = zero;
    let leftEdge = zero;
    for (const part of SPLIT_PARTS) {
      const size = Math.abs(row[part]) * scale;
      if (size < 0.5) continue;
      const x = row[part] >= 0 ? right : leftEdge - size;
      if (row[part] >= 0) right += size; else leftEdge -= size;
      chart.append(svg("rect", { x, y, width: size, height: rowHeight - 12, className: `part ${part}`, dataset: { part } },
        svg("title", {}, `${row.label}: ${part} ${points(row[part])}`)));
    }
  });
  return chart;
}

/** A change of win chance in percentage points: "+12.3 pts". */
export function points(change) {
  const value = Math.round(change * 1000) / 10;
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(1)} pts`;
}
