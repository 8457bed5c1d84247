// "Was it luck?": a finished game's analysis (GET /v1/games/{id}/analysis). While the analysis workers compute it
// (202), the page shows their progress and asks again after Retry-After; once ready (200), each seat's win chance
// along the game (each move a link to the replay at that step), the luck-skill split, the key moments in words and
// each seat's costliest move beside the best option. The first ask counts against the asking key's app's search
// work: under `make run` (no app keys) the local app's; with keys, the app of the page's key (docs/web-table.md).
import { allEvents, get, Problem, request } from "./api.js";
import { chanceLines, points, redrawOnResize, splitBars, widthFor } from "./chart.js";
import { $, clear, el, show, showProblem } from "./dom.js";
import { contextFor, gameIdFromPath, rulesetInfo, setTitle, stepOfVersion, winnerSentence } from "./parts.js";
import { actionLabel, describe } from "./words.js";

const gameId = gameIdFromPath();
const path = `/v1/games/${encodeURIComponent(gameId)}`;
const page = { game: null, ctx: null, analysis: null, stepVersions: [0] };

const CAUSES = { decision: "a choice", chance: "luck (dice, draws)", drift: "the game's own course", seat_joined: "a player joining" };

const replayLink = (version) => `/replay/${encodeURIComponent(gameId)}?step=${stepOfVersion(page.stepVersions, version)}`;

/** GET the analysis until ready: a 202 shows its progress and is asked again after its Retry-After. */
async function analysisWhenReady() {
  for (;;) {
    const response = await fetchAnalysis();
    if (response.status === "ready") return response;
    document.body.dataset.analysis = "pending";
    show($("pending-panel"));
    const progress = response.progress;
    if (progress && progress.entries) {
      $("progress").max = progress.entries;
      $("progress").value = progress.entries_done;
      $("progress-text").textContent = `${progress.entries_done} of ${progress.entries} moves analysed`;
    } else {
      $("progress").removeAttribute("value"); // indeterminate: queued, not started yet
      $("progress-text").textContent = "queued for the analysis workers";
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** One ask; waits on the server up to 2 s so that a short game's analysis often comes in the first answer. */
function fetchAnalysis() {
  return request("GET", `${path}/analysis?wait=2`);
}

function drawChances() {
  const { analysis } = page;
  const box = $("chances");
  clear(box).append(chanceLines(analysis.chances, {
    width: widthFor(box), linkFor: replayLink,
    columnTitle: (v) => (v === 0 ? "the start" : `after move ${v}`),
  }));
  clear($("chances-legend")).append(...analysis.chances[0].map((_, seat) => el("li", { className: `seat-${seat % 8}` },
    `${page.ctx.who(seat)}: ${Math.round(analysis.chances[0][seat] * 100)}% → ${Math.round(analysis.chances.at(-1)[seat] * 100)}%`)));
}

function drawSplit() {
  const rows = page.analysis.split.map((part) => ({ ...part, label: page.ctx.who(part.seat) }));
  const box = $("split");
  clear(box).append(splitBars(rows, { width: widthFor(box) }));
  clear($("split-words")).append(...rows.map((row) => el("li", { dataset: { seat: row.seat } }, splitSentence(row))));
}

/** "Ann: 33% → 100% (+66.7 pts): mostly luck (+50.0 pts); skill +10.0 pts, others +5.0 pts, drift +1.7 pts." */
function splitSentence(row) {
  const parts = ["skill", "luck", "others", "drift"];
  const largest = parts.reduce((best, part) => (Math.abs(row[part]) > Math.abs(row[best]) ? part : best), parts[0]);
  const rest = parts.filter((part) => part !== largest).map((part) => `${part} ${points(row[part])}`).join(", ");
  return `${row.label}: ${Math.round(row.start * 100)}% → ${Math.round(row.result * 100)}% (${points(row.change)}): `
    + `mostly ${largest} (${points(row[largest])}); ${rest}.`;
}

function drawMoments() {
  const { analysis, ctx } = page;
  const list = clear($("moments"));
  for (const moment of analysis.key_moments) {
    const version = moment.version ?? analysis.version;
    const said = moment.events.map((event) => describe(event, ctx));
    if (moment.more_events) said.push(`… and ${moment.more_events} more`);
    list.append(el("li", { dataset: { version } },
      el("strong", {}, `${ctx.who(moment.affected)} ${points(moment.swing)}`),
      ` at move ${version}, mostly from ${CAUSES[moment.cause] ?? moment.cause}`,
      moment.seat !== null && moment.action ? ` (${ctx.who(moment.seat)}: ${actionLabel(moment.action, ctx)})` : "",
      ". ", el("a", { href: replayLink(version) }, "see it"),
      said.length ? el("div", { className: "events" }, said.join(" ")) : null));
  }
  show($("moments-panel"), analysis.key_moments.length > 0);
}

function drawCostly() {
  const { analysis, ctx } = page;
  const list = clear($("costly"));
  for (const part of analysis.split) {
    const move = part.costliest_move;
    if (!move) {
      list.append(el("li", { dataset: { seat: part.seat } }, `${ctx.who(part.seat)}: no move cost more than the play-outs' noise`
        + ` (${part.decisions} choice${part.decisions === 1 ? "" : "s"}).`));
      continue;
    }
    const version = move.version ?? analysis.version;
    list.append(el("li", { dataset: { seat: part.seat, version } },
      el("strong", {}, `${ctx.who(part.seat)}`), ` at move ${version} chose “${actionLabel(move.action, ctx)}”;`,
      ` the best was “${actionLabel(move.best_action, ctx)}”: it cost ${points(-move.cost)} of win chance`,
      ` (95%: ${points(-move.cost_ci95[1])} to ${points(-move.cost_ci95[0])}). `,
      el("a", { href: replayLink(version) }, "see it")));
  }
  show($("costly-panel"), analysis.split.length > 0);
}

function draw() {
  if (!page.analysis) return;
  drawChances();
  drawSplit();
}

async function main() {
  try {
    $("to-replay").href = `/replay/${encodeURIComponent(gameId)}`;
    $("to-table").href = `/table/${encodeURIComponent(gameId)}`;
    const game = await get(path);
    const info = await rulesetInfo(game.ruleset).catch(() => null);
    page.game = game;
    page.ctx = contextFor(game, info);
    setTitle(game, info);
    document.title = `Was it luck? · ${document.title}`;
    if (game.result) $("winners").textContent = winnerSentence(game.result, page.ctx);
    const events = await allEvents(gameId, null);
    page.stepVersions = [0, ...new Set(events.map((entry) => entry.version).filter((version) => version > 0))];
    page.analysis = await analysisWhenReady();
    show($("pending-panel"), false);
    for (const id of ["split-panel", "chances-panel"]) show($(id));
    draw();
    drawMoments();
    drawCostly();
    document.body.dataset.analysis = "ready";
  } catch (error) {
    document.body.dataset.analysis = "failed";
    show($("pending-panel"), false);
    showProblem(error);
    if (error instanceof Problem && error.body.type && String(error.body.type).endsWith("quota-exceeded")) {
      // The asking key's app has no search work left today: say so, and how to ask with another app's key.
      show($("key-panel"));
    }
  }
}

redrawOnResize(draw);
main();
