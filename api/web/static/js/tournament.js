// A tournament: standings after the rounds that ended, and each round's tables with a link to each
// game's table (running) or replay (finished). Read through the public API like any app's page.
import { get } from "./api.js";
import { $, clear, el, showProblem } from "./dom.js";
import { gameIdFromPath, playerWords, rulesetInfo, statusWords } from "./parts.js";

const tournamentId = gameIdFromPath();
// how often a running tournament is read again
const REFRESH_MS = 3000;
const FORMAT_WORDS = { round_robin: "Round robin", swiss: "Swiss", duplicate: "Duplicate" };
/** The ruleset's title and labels (its bots' names), read once: null if they could not be read. */
let ruleset = null;
const entrantWords = (entrant) => playerWords(entrant, ruleset && ruleset.labels);

function drawStandings(tournament) {
  const duplicate = tournament.format === "duplicate";
  $("matchpoints-head").hidden = !duplicate;
  const body = clear($("standings").querySelector("tbody"));
  for (const standing of tournament.standings) {
    body.append(el("tr", { dataset: { entrant: standing.entrant } },
      el("td", {}, String(standing.place)), el("td", {}, entrantWords(standing.entrant)), el("td", {}, String(standing.points)),
      el("td", {}, String(standing.wins)), el("td", {}, standing.opposition.toFixed(2)),
      duplicate ? el("td", {}, String(standing.matchpoints)) : null));
  }
}

function tableLink(table, round, duplicate) {
  if (duplicate && !round.finished) {
    // Its tables share their deals: closed to spectators until the whole round has ended.
    return el("span", { className: "muted" }, "closed until the round ends");
  }
  const finished = table.ranks !== null;
  const path = `${finished ? "/replay/" : "/table/"}${encodeURIComponent(table.game)}`;
  return el("a", { href: path, className: "game-link" }, finished ? "replay" : "watch");
}

function drawRounds(tournament) {
  const rounds = clear($("rounds"));
  const duplicate = tournament.format === "duplicate";
  for (const round of tournament.played) {
    const tables = el("ol", { className: "tables" });
    round.tables.forEach((table) => {
      const seats = table.entrants.map((entrant, seat) =>
        `${entrantWords(entrant)}${table.ranks ? ` (${table.ranks[seat]})` : ""}`).join(", ");
      tables.append(el("li", { dataset: { game: table.game } }, `${seats} — `, tableLink(table, round, duplicate)));
    });
    const state = round.finished ? "ended" : "running";
    rounds.append(el("section", { className: "round", dataset: { round: String(round.round), state } },
      el("h3", {}, `Round ${round.round + 1} of ${tournament.rounds} (${state})`), tables));
  }
}

async function load() {
  try {
    const tournament = await get(`/v1/tournaments/${encodeURIComponent(tournamentId)}`);
    ruleset ??= await rulesetInfo(tournament.ruleset).catch(() => null);
    const title = ruleset ? ruleset.title : tournament.ruleset;
    $("tournament-title").textContent = `${FORMAT_WORDS[tournament.format] ?? tournament.format} tournament of ${title}`;
    document.title = `${$("tournament-title").textContent} · Rulehouse`;
    $("tournament-status").textContent =
      `${statusWords(tournament.status)} · ${tournament.entrants.length} entrants at tables of ${tournament.table_size}` +
      (tournament.rated ? " · rated" : "");
    drawStandings(tournament);
    drawRounds(tournament);
    showProblem(null);
    document.body.dataset.status = tournament.status;
    document.body.dataset.round = String(tournament.round);
    if (tournament.status === "running") setTimeout(load, REFRESH_MS);
  } catch (error) {
    showProblem(error);
    if (!error.status || error.status >= 500) setTimeout(load, REFRESH_MS);
  } finally {
    document.body.dataset.ready = "true";
  }
}

load();
