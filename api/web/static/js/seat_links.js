// A created game's seat links, as the lobby and the finished table's rematch show them: kept in this
// browser, a play link and the link to send per seat it holds a token for, each with a copy button.
import { tokens } from "./api.js";
import { el } from "./dom.js";

export const tableLink = (gameId, seat) => `/table/${encodeURIComponent(gameId)}${seat === null ? "" : `?seat=${seat}`}`;

/** Keeps what `POST /v1/games` (or a rematch) answered: the seats' tokens, the creator's, the invites. */
export function keepCreated(game) {
  const seats = {};
  for (const seat of game.seats) if (seat.token) seats[seat.seat] = { name: seat.name, token: seat.token };
  tokens.save(game.id, {
    ruleset: game.ruleset, created: new Date().toISOString(), creator_token: game.creator_token, seats,
    names: game.seats.map((seat) => seat.name || "open seat"),
    invites: game.invites || [], invite: game.invite || null,
  });
}

/** Copies a link (the clipboard where the page may write it, else the selection) and says so. */
async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "copied";
  button.dataset.copied = "true";
}

/** A read-only link to hand over, and its copy button. */
export function shareField(value) {
  const input = el("input", { readOnly: true, value, className: "share", size: 40 });
  const button = el("button", { type: "button", className: "copy" }, "copy");
  button.addEventListener("click", () => copyLink(input, button));
  return [input, " ", button];
}

/** One list item per seat this browser holds a token for: play it here, or send its link. */
export function seatLinkItems(gameId) {
  const game = tokens.game(gameId) || { seats: {} };
  return Object.entries(game.seats || {}).map(([seat, entry]) => {
    const shared = `${location.origin}/table/${encodeURIComponent(gameId)}#seat=${seat}&token=${encodeURIComponent(entry.token)}`;
    return el("li", { dataset: { seat } },
      el("a", { href: tableLink(gameId, Number(seat)), className: "play-link" }, entry.name ? `Play as ${entry.name} (seat ${Number(seat) + 1})` : `Play as seat ${Number(seat) + 1}`),
      " · link for that player: ", ...shareField(shared));
  });
}
