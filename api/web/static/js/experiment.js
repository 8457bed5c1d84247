// An experiment (/experiments/{id}): its progress, the designer's sentence, the measures along the
// sweep as lines with interval bands, and the variants side by side. Polls until it has ended.
import { get, request } from "./api.js";
import { lineBands, redrawOnResize, widthFor } from "./chart.js";
import { $, clear, el, show, showProblem } from "./dom.js";

const POLL_MS = 1000;
const expId = decodeURIComponent(window.location.pathname.split("/").pop());
const path = `/v1/experiments/${encodeURIComponent(expId)}`;

// An experiment finished before turn order was counted has no `first_mover_edge`: its chart stays empty.
const edgeOf = (edge) => (edge ? [edge.value, ...edge.ci95] : null);
const MEASURES = [
  ["exp-edge", (v) => edgeOf(v.first_mover_edge), (x) => x.toFixed(3)],
  ["exp-seat-edge", (v) => edgeOf(v.first_seat_edge), (x) => x.toFixed(3)],
  ["exp-turns", (v) => [v.turns.mean, ...v.turns.mean_ci95], (x) => x.toFixed(1)],
  ["exp-leads", (v) => [v.lead_changes.mean, ...v.lead_changes.ci95], (x) => x.toFixed(2)],
  // With `drama` (null without: those charts stay empty and their panel hidden).
  ["exp-decided", (v) => (v.drama ? [v.drama.decided_at.mean, ...v.drama.decided_at.ci95] : null), (x) => x.toFixed(2)],
  ["exp-comebacks", (v) => (v.drama ? [v.drama.comebacks.rate, ...v.drama.comebacks.ci95] : null), (x) => x.toFixed(2)],
  ["exp-kingmaker", (v) => (v.drama ? [v.drama.kingmaking.games.rate, ...v.drama.kingmaking.games.ci95] : null),
    (x) => x.toFixed(2)],
  ["exp-skill", (v) => (v.drama ? [v.drama.skill_index.value, ...v.drama.skill_index.ci95] : null), (x) => x.toFixed(2)],
];

/** The lines to draw: one per value of a sweep's second option, else one; x is the first option's
 * value when it is a number, else the variant's position. */
function series(state) {
  const variants = state.result.variants.filter((v) => v.name !== "base" && v.games > 0);
  const options = Object.keys(state.sweep);
  const numeric = options.length > 0 && variants.every((v) => typeof v.point[options[0]] === "number");
  const x = (v, index) => (numeric ? v.point[options[0]] : index);
  const lines = options.length === 2
    ? state.sweep[options[1]].map((value) => ({
      label: `${options[1]}=${JSON.stringify(value)}`,
      variants: variants.filter((v) => JSON.stringify(v.point[options[1]]) === JSON.stringify(value)),
    }))
    : [{ label: options[0] || "variants", variants }];
  return { lines, x, xLabel: numeric ? options[0] : "variant", ticks: numeric ? null : variants.map((v) => v.name) };
}

let drawnState = null;
redrawOnResize(() => drawnState && drawCharts(drawnState));

function drawCharts(state) {
  drawnState = state;
  const { lines, x, xLabel, ticks } = series(state);
  const base = state.result.variants[0];
  show($("exp-charts-panel"));  // shown first: a chart is drawn at its box's width
  if (base.drama) show($("exp-drama-panel"));
  for (const [id, read, format] of MEASURES) {
    if (read(base) === null) {
      clear($(id));
      continue;
    }
    const drawn = lines.map((line) => ({
      label: line.label,
      points: line.variants.map((v, index) => {
        const [value, low, high] = read(v);
        return { x: x(v, index), value, low, high, name: v.name };
      }),
    }));
    clear($(id)).append(lineBands(drawn, { xLabel, ticks, reference: read(base)[0], format, width: widthFor($(id)) }));
  }
}

function cell(text) {
  return el("td", {}, text);
}

const rate = (rates) => (rates
  ? `${rates.win_rates[0].toFixed(3)} [${rates.win_rate_ci95[0][0].toFixed(3)}, ${rates.win_rate_ci95[0][1].toFixed(3)}]` : "–");
const versus = (d) => (d ? `${d.difference.toFixed(3)} [${d.ci95[0].toFixed(3)}, ${d.ci95[1].toFixed(3)}]` : "–");
const holm = (d) => (d && d.p_holm !== undefined ? d.p_holm.toPrecision(2) : "–");

function drawTable(state) {
  const table = clear($("exp-table"));
  table.append(el("tr", {}, ...["variant", "games", "stopped", "first mover wins", "edge", "vs base", "Holm p",
    "seat 0 wins", "seat 0 edge", "mean turns", "vs base", "lead changes", "halfway leader wins"].map((text) => el("th", {}, text))));
  for (const v of state.result.variants) {
    const diff = v.difference;
    const first = diff && diff.position_win_rates ? diff.position_win_rates[0] : null;
    const relative = diff && diff.turns_mean.relative !== null ? `${(diff.turns_mean.relative * 100).toFixed(0)}%` : "–";
    table.append(el("tr", { className: "variant" },
      cell(v.name), cell(String(v.games)), cell(v.stopped || "–"),
      cell(rate(v.positions)), cell(v.first_mover_edge ? v.first_mover_edge.value.toFixed(3) : "–"),
      cell(versus(first)), cell(holm(first)),
      cell(rate(v)), cell(v.first_seat_edge.value.toFixed(3)),
      cell(v.turns.mean.toFixed(1)), cell(relative), cell(v.lead_changes.mean.toFixed(2)),
      cell(v.halfway_leader_wins.rate.toFixed(3))));
  }
  show($("exp-table-panel"));
}

async function poll() {
  try {
    const state = await get(path);
    const { games_done: done, games_budget: budget, round } = state.progress;
    $("exp-progress").max = budget;
    $("exp-progress").value = state.status === "finished" ? budget : done;
    $("exp-status").textContent = `${state.status}: ${done} games (at most ${budget}), round ${round}, ${state.elapsed.toFixed(1)} s`;
    $("exp-sentence").textContent = state.result.summary || "";
    document.body.dataset.experiment = state.status;
    if (state.result.variants[0].games > 0) {
      drawCharts(state);
      drawTable(state);
      document.body.dataset.chart = "drawn";
    }
    if (state.status === "failed") return showProblem(new Error(`The experiment failed: ${state.error}`));
    if (state.status === "finished" || state.status === "cancelled") return;
  } catch (error) {
    showProblem(error);
  }
  setTimeout(poll, POLL_MS);
}

$("exp-cancel").addEventListener("click", () => request("DELETE", path).catch(showProblem));
document.body.dataset.ready = "true";
poll();
