// The finished table's "Rematch" button, for the browser that created the game (it holds the creator token):
// POST /v1/games/{id}/rematch, then the new game's links, kept in this browser like the lobby's creations.
import { get, post, tokens } from "./api.js";
import { $, clear, el, show, showProblem } from "./dom.js";
import { gameIdFromPath } from "./parts.js";

const gameId = gameIdFromPath();
const seatLink = (id, seat) => `/table/${encodeURIComponent(id)}?seat=${seat}`;

/** Keeps the rematch's tokens as the lobby keeps a created game's, and remembers it on the finished game. */
function keep(game) {
  const seats = {};
  for (const seat of game.seats) if (seat.token) seats[seat.seat] = { name: seat.name, token: seat.token };
  tokens.save(game.id, {
    ruleset: game.ruleset, created: new Date().toISOString(), creator_token: game.creator_token, seats,
    invites: game.invites || [], invite: game.invite || null,
  });
  tokens.save(gameId, { rematch: game.id });
}

/** The rematch's links: a play link and the link to send per human seat, and the table to watch. */
function drawLinks(rematchId) {
  const game = tokens.game(rematchId) || { seats: {} };
  const list = clear($("rematch-links"));
  for (const [seat, entry] of Object.entries(game.seats)) {
    const shared = `${location.origin}/table/${encodeURIComponent(rematchId)}#seat=${seat}&token=${encodeURIComponent(entry.token)}`;
    list.append(el("li", { dataset: { seat } },
      el("a", { href: seatLink(rematchId, seat), className: "play-link" }, `Play as ${entry.name || `seat ${seat}`}`),
      " · link for that player: ", el("input", { readOnly: true, value: shared, className: "share", size: 40 })));
  }
  $("rematch-watch").href = `/table/${encodeURIComponent(rematchId)}`;
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
    keep(game);
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
