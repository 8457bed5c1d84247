// Simulations: start one with chosen bots and options, watch its progress, chart its result.
import { get, post, request } from "./api.js";
import { histogram, intervalBars, redrawOnResize, widthFor } from "./chart.js";
import { $, clear, el, show, showProblem } from "./dom.js";
import { drawOptions, readOptions } from "./options.js";

const sim = { rulesets: [], id: null, timer: null, result: null };
const POLL_MS = 500;

const current = () => sim.rulesets.find((ruleset) => ruleset.id === $("sim-ruleset").value);

function drawBots() {
  const ruleset = current();
  const players = Math.min(ruleset.max_players, Math.max(ruleset.min_players, Number($("sim-players").value) || ruleset.min_players));
  const fieldset = $("sim-bots");
  const old = [...fieldset.querySelectorAll("select")].map((select) => select.value);
  for (const row of [...fieldset.querySelectorAll("label")]) row.remove();
  for (let seat = 0; seat < players; seat += 1) {
    const select = el("select", { className: "sim-bot" }, ruleset.bots.map((bot) => el("option", { value: bot }, bot)));
    if (old[seat] && ruleset.bots.includes(old[seat])) select.value = old[seat];
    fieldset.append(el("label", {}, `Seat ${seat} `, select));
  }
}

async function chooseRuleset() {
  const ruleset = current();
  const input = $("sim-players");
  input.min = ruleset.min_players;
  input.max = ruleset.max_players;
  input.value = ruleset.min_players;
  drawBots();
  const details = await get(`/v1/rulesets/${encodeURIComponent(ruleset.id)}`);
  drawOptions($("sim-options"), details.options_schema);
}

const MAX_BINS = 30;

/** The turns histogram ({turns: games}) on a linear axis, in at most MAX_BINS equal bins. */
function bins(histogram) {
  const counts = Object.entries(histogram).map(([turns, games]) => [Number(turns), games]);
  if (!counts.length) return [];
  const low = Math.min(...counts.map(([turns]) => turns));
  const high = Math.max(...counts.map(([turns]) => turns));
  const width = Math.max(1, Math.ceil((high - low + 1) / MAX_BINS));
  const buckets = [];
  for (let start = low; start <= high; start += width) {
    const end = start + width - 1;
    buckets.push({ label: width === 1 ? String(start) : `${start}–${end}`, count: 0, start, end });
  }
  for (const [turns, games] of counts) buckets[Math.floor((turns - low) / width)].count += games;
  return buckets;
}

const ORDINALS = ["1st (first mover)", "2nd", "3rd"];
const ordinal = (position) => ORDINALS[position] || `${position + 1}th`;

/** Interval bars of a result's (or its `positions`') win rates, labelled by ``label(index)``. */
function winRateBars(rates, label, box) {
  const rows = rates.win_rates.map((rate, index) => ({
    label: label(index), value: rate, low: rates.win_rate_ci95[index][0], high: rates.win_rate_ci95[index][1],
  }));
  clear(box).append(intervalBars(rows, { width: widthFor(box) }));
}

function drawResult(result) {
  sim.result = result;
  show($("sim-result-panel"));
  winRateBars(result, (seat) => `seat ${seat} (${result.bots[seat]})`, $("sim-winrates"));
  winRateBars(result.positions, ordinal, $("sim-positions"));
  clear($("sim-lengths")).append(histogram(bins(result.turns.histogram), { width: widthFor($("sim-lengths")) }));
  const edge = result.positions.win_rates[0] - 1 / result.players;
  $("sim-summary").textContent = `${result.games} games · first mover's edge ${edge >= 0 ? "+" : ""}${edge.toFixed(3)} `
    + `over a fair ${(1 / result.players).toFixed(3)} · ${result.draws} shared wins · ${result.turn_cap_hits} hit the turn cap · `
    + `turns: mean ${result.turns.mean.toFixed(1)}, median ${result.turns.median}, 90th percentile ${result.turns.p90}, max ${result.turns.max}`;
  document.body.dataset.chart = "drawn";
}

redrawOnResize(() => sim.result && drawResult(sim.result));

async function poll() {
  try {
    const state = await get(`/v1/simulations/${encodeURIComponent(sim.id)}`);
    const { games_done: done, games } = state.progress;
    $("sim-progress").max = games;
    $("sim-progress").value = done;
    $("sim-status").textContent = `${state.status}: ${done} of ${games} games, ${state.elapsed.toFixed(1)} s`;
    document.body.dataset.simulation = state.status;
    if (state.status === "finished") return drawResult(state.result);
    if (state.status === "failed") return showProblem(new Error(`The simulation failed: ${state.error}`));
    if (state.status === "cancelled") return;
  } catch (error) {
    showProblem(error);
  }
  sim.timer = setTimeout(poll, POLL_MS);
}

async function run(submitted) {
  submitted.preventDefault();
  showProblem(null);
  clearTimeout(sim.timer);
  sim.result = null;
  show($("sim-result-panel"), false);
  try {
    const body = {
      ruleset: current().id, players: Number($("sim-players").value), games: Number($("sim-games").value),
      bots: [...$("sim-bots").querySelectorAll("select")].map((select) => select.value), options: readOptions($("sim-options")),
    };
    const seed = $("sim-seed").value.trim();
    if (seed) body.seed = Number(seed);
    const created = await post("/v1/simulations", body);
    sim.id = created.id;
    show($("sim-status-panel"));
    poll();
  } catch (error) {
    showProblem(error);
  }
}

async function start() {
  try {
    sim.rulesets = (await get("/v1/rulesets")).rulesets;
    const select = $("sim-ruleset");
    for (const ruleset of sim.rulesets) select.append(el("option", { value: ruleset.id }, ruleset.title));
    select.addEventListener("change", chooseRuleset);
    $("sim-players").addEventListener("change", drawBots);
    $("sim-form").addEventListener("submit", run);
    $("sim-cancel").addEventListener("click", () => sim.id && request("DELETE", `/v1/simulations/${encodeURIComponent(sim.id)}`).catch(showProblem));
    await chooseRuleset();
    document.body.dataset.ready = "true";
  } catch (error) {
    showProblem(error);
  }
}

start();
