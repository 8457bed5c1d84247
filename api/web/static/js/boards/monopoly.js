// Monopoly: Cars 2: the board from the view's own board data, owners, pawns, the spinner.
import { el } from "../dom.js";
import { facts, ring, scoreTable, seatsAt, turnFacts } from "./ring.js";

/** Monopoly money: M1, M5... */
export const currency = "M";

export function spaceName(view) {
  return (index) => (view && view.board && view.board[index] ? view.board[index].name : `space ${index}`);
}

export function draw(view, ctx) {
  const at = seatsAt(view.players);
  const spaces = view.board.map((space, index) => {
    const owner = view.owners ? view.owners[index] : null;
    const lines = [];
    if (space.price !== undefined) lines.push(ctx.money(space.price));
    if (owner !== null && owner !== undefined) lines.push(`owned by ${ctx.who(owner)}`);
    return {
      title: space.name, lines, seats: at.get(index) || [],
      className: `kind-${space.kind} ${space.colour ? `colour-${space.colour}` : ""} ${owner !== null && owner !== undefined ? `owned seat-${owner % 8}` : ""}`,
    };
  });
  const middle = el("div", { className: "middle-facts" },
    el("h3", {}, "Monopoly: Cars 2"),
    facts([
      ["Turn", `${view.turn}${view.turn_cap ? ` of ${view.turn_cap}` : ""}`],
      ...turnFacts(view, "To play", view.current, ctx),
      ["Last spin", view.last_spin ?? "–"],
    ]),
    el("table", { className: "numbers" }, el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Money"),
      el("th", {}, "Properties"), el("th", {}, "Notes"))),
    el("tbody", {}, view.players.map((player, seat) => el("tr", { dataset: { seat } },
      el("td", {}, ctx.who(seat)), el("td", {}, ctx.money(player.money)), el("td", {}, String(player.properties.length)),
      el("td", {}, [player.in_prison ? "in prison" : "", player.jail_cards && player.jail_cards.length
        ? `${player.jail_cards.length} get-out card(s)` : ""].filter(Boolean).join(", ")))))));
  return ring(spaces, middle, ctx);
}

/** How the result was counted: money, then properties; a seat that could not pay is out of the count. */
export function explainResult(result, view, ctx) {
  const details = result.details || {};
  return scoreTable(result, ["Player", "Money", "Properties", ""], (seat) => [ctx.who(seat), ctx.money(result.scores[seat]),
    String((details.properties || [])[seat] ?? view.players[seat].properties.length),
    seat === details.short_seat ? "could not pay: out of the count" : ""],
  "The most money wins; equal money, the most properties.");
}
