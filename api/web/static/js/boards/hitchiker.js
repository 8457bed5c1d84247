// Hitchiker: the cities from the ruleset's board data, hometowns, the casino and the deal on the table.
import { el, money, words } from "../dom.js";
import { facts, ring, scoreTable, seatsAt, turnFacts } from "./ring.js";

/** The cities: a custom board's (the view's `custom_data.board`), else the ruleset's (`data.board`); both are {cities}. */
function board(view, data) {
  const custom = view && view.custom_data && view.custom_data.board;
  const published = data && data.board;
  const cities = (custom && custom.cities) || (published && published.cities);
  if (!Array.isArray(cities)) throw new Error("Hitchiker: no board data (neither custom_data.board nor data.board)");
  return cities;
}

export function spaceName(view, data) {
  let cities = [];
  try {
    cities = board(view, data);
  } catch {
    // no board data yet (a waiting game): log lines name the city by number
  }
  return (index) => (cities[index] ? cities[index].name : `city ${index}`);
}

export function draw(view, ctx, data) {
  const cities = board(view, data);
  const owner = new Map();
  view.players.forEach((player, seat) => player.hometowns.forEach((city) => owner.set(city, seat)));
  const at = seatsAt(view.players);
  const spaces = cities.map((city, index) => ({
    title: city.name, seats: at.get(index) || [],
    className: `kind-${city.kind} ${owner.has(index) ? `owned seat-${owner.get(index) % 8}` : ""}`,
    lines: [ctx.term("space_kinds", city.kind), city.amount ? money(city.amount) : "", owner.has(index) ? `home of ${ctx.who(owner.get(index))}` : ""]
      .filter(Boolean),
  }));
  const casino = view.casino ? el("div", { className: "casino" }, el("h4", {}, "Casino"),
    el("p", {}, `House: ${view.casino.house.map(ctx.card).join(", ")} (${view.casino.house_total})`),
    el("ul", {}, view.casino.hands.map((hand) => el("li", {},
      `${ctx.who(hand.seat)}: ${hand.cards.map(ctx.card).join(", ")} = ${hand.total}${hand.soft ? " soft" : ""}, bet ${money(hand.bet)}${hand.outcome ? ` — ${ctx.term("hand_states", hand.outcome)}` : ""}`)))) : null;
  const deal = view.deal ? el("div", { className: "deal" }, el("h4", {}, "Black market deal"),
    el("p", {}, ctx.part("deal", view.deal) ?? Object.entries(view.deal).map(([key, value]) => `${words(key)}: ${typeof value === "object" ? JSON.stringify(value) : value}`).join(", "))) : null;
  const middle = el("div", { className: "middle-facts" },
    el("h3", {}, "Hitchiker"),
    facts([
      ["Turn", `${view.turn}${view.turn_cap ? ` of ${view.turn_cap}` : ""}`],
      ...turnFacts(view, "To decide", view.decider, ctx),
      // The bank is a signed ledger (docs/rules/hitchiker.md): below zero, it has paid out more than it took in.
      ["Bank", view.bank < 0 ? `${money(-view.bank)} paid out` : money(view.bank)],
      ["Bad Ride cards left", String(view.bad_ride_cards_left)],
    ]),
    el("table", { className: "numbers" }, el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Cash"),
      el("th", {}, "Savings"), el("th", {}, "Units"), el("th", {}, "Notes"))),
    el("tbody", {}, view.players.map((player, seat) => el("tr", { dataset: { seat } }, el("td", {}, ctx.who(seat)),
      el("td", {}, money(player.cash)), el("td", {}, money(player.savings)), el("td", {}, String(player.units)),
      el("td", {}, player.in_pot_hole ? "in a pot hole" : ""))))),
    casino, deal);
  return ring(spaces, middle, ctx);
}

/** How the result was counted: savings + travelling cash (docs/rules/hitchiker.md, "Winning"). */
export function explainResult(result, view, ctx) {
  return scoreTable(result, ["Player", "Savings + cash", "Savings", "Travelling cash"], (seat) => [ctx.who(seat),
    money(result.scores[seat]), money(view.players[seat].savings), money(view.players[seat].cash)],
  result.reason === "turn_cap"
    ? "At the turn limit the highest savings + travelling cash wins; equal totals share the win."
    : "$250,000 of savings, or $50,000,000 of travelling cash, wins at once.");
}
