// The finished table's "Rematch" button, for the browser that created the game (it holds the creator token):
// POST /v1/games/{id}/rematch, then the new game's links, kept in this browser like the lobby's creations.
import { get, post, tokens } from "./api.js";
import { $, clear, show, showProblem } from "./dom.js";
import { gameIdFromPath } from "./parts.js";
import { keepCreated, seatLinkItems, tableLink } from "./seat_links.js";

const gameId = gameIdFromPath();

/** The rematch's links: a play link and the link to send per human seat, and the table to watch. */
function drawLinks(rematchId) {
  clear($("rematch-links")).append(...seatLinkItems(rematchId));
  $("rematch-watch").href = tableLink(rematchId, null);
  show($("rematch-started"));
  document.body.dataset.rematch = rematchId;
}

async function startRematch() {
  const button = $("rematch");
  button.disabled = true;
  showProblem(null);
  try {
    const game = await post(`/v1/games/${encodeURIComponent(gameId)}/rematch`, undefined,
      { token: tokens.game(gameId).creator_token });
    keepCreated(game);
    tokens.save(gameId, { rematch: game.id });
    drawLinks(game.id);
  } catch (error) {
    showProblem(error);
  } finally {
    button.disabled = false;
  }
}

/** Shown once the game is over, if it finished, is no tournament's table and this browser created it. */
async function offer() {
  const stored = tokens.game(gameId);
  if (!stored || !stored.creator_token || $("over-panel").hidden || !$("rematch-place").hidden) return;
  const game = await get(`/v1/games/${encodeURIComponent(gameId)}`);
  if (game.status !== "finished" || game.tournament !== null) return;
  show($("rematch-place"));
  if (stored.rematch) drawLinks(stored.rematch);
}

$("rematch").addEventListener("click", startRematch);
new MutationObserver(() => offer().catch(showProblem)).observe($("over-panel"), { attributes: true });
offer().catch(showProblem);
