// A ruleset's leaderboard: GET /v1/ratings/{ruleset}, page by page. Any key may read it (the publishable one).
import { get } from "./api.js";
import { $, el, show, showProblem } from "./dom.js";
import { gameIdFromPath, rulesetInfo } from "./parts.js";

const rulesetId = gameIdFromPath();
const playerLink = (player) => el("a", { href: `/player/${encodeURIComponent(player)}` }, player);

async function readPage(cursor) {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
  const page = await get(`/v1/ratings/${encodeURIComponent(rulesetId)}${query}`);
  const body = $("ratings").querySelector("tbody");
  for (const entry of page.ratings) {
    body.append(el("tr", { dataset: { player: entry.player } },
      el("td", {}, String(entry.place)), el("td", {}, playerLink(entry.player)),
      el("td", {}, entry.ordinal.toFixed(2)), el("td", {}, entry.mu.toFixed(2)), el("td", {}, `± ${entry.sigma.toFixed(2)}`),
      el("td", {}, String(entry.games))));
  }
  show($("ratings-empty"), !body.children.length);
  const more = $("ratings-more");
  show(more, Boolean(page.next));
  more.onclick = () => readPage(page.next).catch(showProblem);
}

async function start() {
  const info = await rulesetInfo(rulesetId);
  $("board-title").textContent = `Leaderboard: ${info.title}`;
  document.title = `${info.title} leaderboard · Rulehouse`;
  await readPage(null);
  document.body.dataset.ready = "true";
}

start().catch(showProblem);
