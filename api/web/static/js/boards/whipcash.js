// Whipca$h: the loop and the Blind Justice Freeway from the view's board, the Pros and the bank.
import { el, money } from "../dom.js";
import { facts, pawns, ring, scoreTable, seatsAt, turnFacts } from "./ring.js";

export function spaceName(view) {
  return (index) => {
    const loop = view && view.board ? view.board.loop : [];
    if (loop[index]) return loop[index].label;
    if (loop.length && index >= loop.length) return `freeway lane ${index - loop.length + 1}`;
    return `space ${index}`;
  };
}

/** The Pros and the bank by name, for the log. */
export function otherNames(view) {
  return Object.fromEntries([["bank", "the bank"], ...(view && view.pros ? view.pros.map((pro) => [pro.id, pro.name]) : [])]);
}

export function draw(view, ctx) {
  const live = view.players.map((player) => (player.alive ? player : { ...player, position: null }));
  const at = seatsAt(live);
  const loop = view.board.loop;
  const spaces = loop.map((space, index) => ({
    title: space.label, seats: at.get(index) || [], className: `kind-${space.kind}`,
    lines: space.pro ? [ctx.who(space.pro)] : [],
  }));
  const lanes = [];
  for (let lane = 0; lane < view.board.freeway.lanes; lane += 1) {
    const position = loop.length + lane;
    lanes.push(el("li", { className: "lane", dataset: { index: position } }, `Lane ${lane + 1}`,
      pawns(at.get(position) || [], ctx)));
  }
  const middle = el("div", { className: "middle-facts" },
    el("h3", {}, view.board.name),
    facts([
      ["Turn", `${view.turn}${view.turn_cap ? ` of ${view.turn_cap}` : ""}`],
      ...turnFacts(view, "To play", view.current, ctx),
      ["Bank", money(view.bank)],
    ]),
    el("h4", {}, `Blind Justice Freeway (rejoins at ${view.board.freeway.rejoin})`),
    el("ol", { className: "freeway" }, lanes),
    el("table", { className: "numbers" }, el("thead", {}, el("tr", {}, el("th", {}, "Pro"), el("th", {}, "Cash"),
      el("th", {}, "Holdings"))),
    el("tbody", {}, view.pros.map((pro) => el("tr", { className: pro.bankrupt ? "out" : "" }, el("td", {}, pro.name),
      el("td", {}, pro.bankrupt ? "bankrupt" : money(pro.cash)),
      el("td", {}, ctx.who(pro.holdings_owner)))))),
    el("table", { className: "numbers" }, el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Cash"),
      el("th", {}, "Notes"))),
    el("tbody", {}, view.players.map((player, seat) => el("tr", { className: player.alive ? "" : "out", dataset: { seat } },
      el("td", {}, ctx.who(seat)), el("td", {}, money(player.cash)),
      el("td", {}, [player.alive ? "" : "bankrupt", player.anti_fender_bender ? "Anti-Fender-Bender" : ""]
        .filter(Boolean).join(", ")))))));
  return ring(spaces, middle, ctx);
}

/** How the result was counted: the cash of those still in; the bankrupt after them, the last to go first. */
export function explainResult(result, view, ctx) {
  return scoreTable(result, ["Player", "Cash", ""], (seat) => [ctx.who(seat), money(result.scores[seat]),
    view.players[seat].alive ? "" : "bankrupt"],
  "The most cash among the players still in wins; equal cash shares the win.");
}
