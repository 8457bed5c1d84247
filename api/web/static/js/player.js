// One of the app's players: GET /v1/players/{id} (ratings, recent results) and /games. Both need the app's
// secret key (the games scope: they list unlisted games), so the page has the app key panel.
import { get } from "./api.js";
import { $, el, show, showProblem } from "./dom.js";
import { askForKey, mountKeyPanel } from "./key_panel.js";
import { gameIdFromPath, playerWords, rulesetInfo, rulesetTitles, statusWords } from "./parts.js";

const playerId = gameIdFromPath();
/** ruleset id -> title: the page names each game and rating by its game's title, not its ruleset id */
let titles = new Map();
const titleOf = (ruleset) => titles.get(ruleset) ?? ruleset;
const boardLink = (ruleset) => el("a", { href: `/leaderboard/${encodeURIComponent(ruleset)}` }, titleOf(ruleset));

function gameLink(game) {
  const over = game.status === "finished" || game.status === "aborted";
  const path = `${over ? "/replay/" : "/table/"}${encodeURIComponent(game.id)}`;
  return el("li", { dataset: { game: game.id } },
    el("a", { href: path, className: "game-link" }, `${titleOf(game.ruleset)} · ${statusWords(game.status)}`),
    ` · seat ${game.seat + 1}${game.rated ? " · rated" : ""}${game.tournament ? " · tournament" : ""}`,
    ` · ${new Date(game.created).toLocaleString()}`);
}

async function readGames(cursor) {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
  const page = await get(`/v1/players/${encodeURIComponent(playerId)}/games${query}`);
  $("player-games").append(...page.games.map(gameLink));
  const more = $("games-more");
  show(more, Boolean(page.next));
  more.onclick = () => readGames(page.next).catch(showProblem);
}

async function start() {
  mountKeyPanel();
  $("player-title").textContent = playerId;
  $("player-id").textContent = playerId;
  const [player, read] = await Promise.all([get(`/v1/players/${encodeURIComponent(playerId)}`), rulesetTitles()]);
  titles = read;
  // A bot's id (bot:heuristic#2) reads as its name ("Heuristic bot #2"), by the labels of a game it rated in.
  const rated = player.ratings.length ? await rulesetInfo(player.ratings[0].ruleset).catch(() => null) : null;
  $("player-title").textContent = playerWords(playerId, rated && rated.labels);
  document.title = `${$("player-title").textContent} · Rulehouse`;
  const cost = player.move_cost === null ? "" : ` · average move cost ${(player.move_cost * 100).toFixed(1)} win-chance points over ${player.analysed_games} analysed games`;
  $("player-summary").textContent = `${player.games_played} games kept${cost}`;
  const body = $("player-ratings").querySelector("tbody");
  for (const rating of player.ratings) {
    body.append(el("tr", { dataset: { ruleset: rating.ruleset } }, el("td", {}, boardLink(rating.ruleset)),
      el("td", {}, String(rating.place)), el("td", {}, rating.ordinal.toFixed(2)), el("td", {}, rating.mu.toFixed(2)),
      el("td", {}, `± ${rating.sigma.toFixed(2)}`), el("td", {}, String(rating.games))));
  }
  await readGames(null);
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  showProblem(error);
  askForKey(error);
});
