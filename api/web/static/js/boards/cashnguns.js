// Cash 'n Guns: the gangsters around the table, as the viewer may see them, and the loot in the middle.
import { el, money, svg } from "../dom.js";
import { loot } from "../words.js";
import { facts } from "./ring.js";

export function spaceName() {
  return (index) => `spot ${index}`;
}

function place(seat, count) {
  // Seat 0 at the bottom, the others clockwise around an ellipse (percent of the table's box).
  const angle = Math.PI / 2 + (2 * Math.PI * seat) / count;
  return [50 + 38 * Math.cos(angle), 50 + 36 * Math.sin(angle)];
}

function state(player, view) {
  const notes = [];
  if (!player.alive) return ["out of the game"];
  if (player.standing === true) notes.push("standing");
  if (player.standing === false) notes.push("lying down");
  if (player.revealed) notes.push(`showed a ${player.revealed}`);
  else if (view.phase === "choose" || view.phase === "choose_bullet") notes.push(player.has_chosen ? "loaded" : "loading…");
  if (view.phase === "aim" && !player.has_aimed) notes.push("aiming…");
  return notes;
}

export function draw(view, ctx) {
  const count = view.players.length;
  const centres = view.players.map((_, seat) => place(seat, count));
  const arrows = svg("svg", { className: "aims", viewBox: "0 0 100 100", preserveAspectRatio: "none" },
    svg("defs", {}, svg("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "5",
      markerHeight: "5", orient: "auto-start-reverse" }, svg("path", { d: "M 0 0 L 10 5 L 0 10 z" }))));
  view.players.forEach((player, seat) => {
    if (!player.alive || player.target === null || player.target === undefined) return;
    const [fromX, fromY] = centres[seat];
    const [toX, toY] = centres[player.target];
    // Each arrow a little to its right, so that two gangsters aiming at each other show two arrows.
    const length = Math.hypot(toX - fromX, toY - fromY) || 1;
    const [shiftX, shiftY] = [(-(toY - fromY) / length) * 1.5, ((toX - fromX) / length) * 1.5];
    const [x1, y1, x2, y2] = [fromX + shiftX, fromY + shiftY, toX + shiftX, toY + shiftY];
    arrows.append(svg("line", { x1, y1, x2: x1 + (x2 - x1) * 0.8, y2: y1 + (y2 - y1) * 0.8,
      className: `aim seat-${seat % 8}`, "marker-end": "url(#arrowhead)", dataset: { from: seat, to: player.target } }));
  });
  const gangsters = view.players.map((player, seat) => {
    const [x, y] = centres[seat];
    const wounds = el("span", { className: "wounds", title: `${player.wounds} wound(s)` },
      "✚".repeat(player.wounds), player.wounds ? " " : "", ctx.term("wounds", player.wounds));
    return el("div", {
      className: `gangster seat-${seat % 8} ${player.alive ? "" : "dead"} ${seat === view.you ? "you" : ""} ${player.standing === false ? "lying" : ""}`,
      style: { left: `${x}%`, top: `${y}%` }, dataset: { seat },
    }, el("strong", { className: "gangster-name" }, ctx.who(seat)),
    seat === view.godfather ? el("span", { className: "badge" }, "Godfather") : null,
    el("span", { className: "loot-value" }, money(player.loot_value)),
    el("small", {}, `${player.loot.length} loot · ${player.hand_size} cards · ${player.diamond_cards} ◆`),
    wounds,
    el("small", { className: "gangster-state" }, state(player, view).join(", ")),
    player.target !== null && player.target !== undefined && player.alive
      ? el("small", { className: "target" }, `aims at ${ctx.who(player.target)}`) : null);
  });
  const middle = el("div", { className: "loot-table" },
    el("h3", {}, `Round ${view.round} of ${view.rounds} · ${view.phase === "over" ? "game over" : ctx.term("phases", view.phase)}`),
    el("ul", { className: "lineup" }, view.lineup.map((card) => el("li", { className: `loot loot-${card.split("_")[0]}` }, loot(card, ctx)))),
    facts([
      ["Godfather token", view.token_available ? "on the table" : view.token_taker === null ? "–" : `taken by ${ctx.who(view.token_taker)}`],
      ["Loot piles left", String(view.piles_left)],
      ["Discarded", `${view.discard.click} click, ${view.discard.bang} bang, ${view.discard.face_down} face down`],
      ["Picking", view.picker === null || view.picker === undefined ? "–" : ctx.who(view.picker)],
    ]));
  return el("div", { className: "gang-table" }, arrows, el("div", { className: "felt" }, middle), gangsters);
}

/**
 * A gangster's loot by kind, each with its value: bills and diamonds at face value, the paintings
 * as a set (their value is the rest of `loot_value`, which counts them by the set's chart).
 */
export function lootGroups(player) {
  const groups = { bill: { count: 0, value: 0 }, diamond: { count: 0, value: 0 }, painting: { count: 0, value: 0 } };
  const others = [];
  for (const card of player.loot) {
    const match = /^(bill|diamond)_(\d+)$/.exec(card);
    if (match) {
      groups[match[1]].count += 1;
      groups[match[1]].value += Number(match[2]);
    } else if (card === "painting") groups.painting.count += 1;
    else others.push(loot(card));
  }
  groups.painting.value = player.loot_value - groups.bill.value - groups.diamond.value;
  const lines = [];
  if (groups.bill.count) lines.push(`${groups.bill.count} bill${groups.bill.count > 1 ? "s" : ""} ${money(groups.bill.value)}`);
  if (groups.diamond.count) lines.push(`${groups.diamond.count} diamond${groups.diamond.count > 1 ? "s" : ""} ${money(groups.diamond.value)}`);
  if (groups.painting.count) lines.push(`${groups.painting.count} painting${groups.painting.count > 1 ? "s" : ""} ${money(groups.painting.value)} as a set`);
  return { lines, others };
}

/** What only the viewer sees: their hand and loaded card, and their loot by kind. */
export function privateFacts(view) {
  if (view.you === undefined || view.you === null || !view.hand) return null;
  const mine = lootGroups(view.players[view.you]);
  return facts([
    ["Your hand", `${view.hand.click} Click, ${view.hand.bang} Bang!`],
    ["Loaded", view.bullet ? (view.bullet === "bang" ? "a Bang!" : "a Click") : "nothing yet"],
    ["Your loot", mine.lines.length ? el("ul", { className: "loot-groups" }, mine.lines.map((line) => el("li", {}, line)),
      el("li", { className: "loot-total" }, `worth ${money(view.players[view.you].loot_value)}`)) : "none"],
    mine.others.length ? ["Kept to use", mine.others.join(", ")] : null,
  ]);
}

/**
 * How the result was counted: each gangster's loot by kind, the diamond bonus (the most diamond
 * cards among those who may win, no tie), the total, and who could not win.
 */
export function explainResult(result, view, ctx) {
  const details = result.details || {};
  const bonusTo = details.diamond_bonus_to;
  const rows = result.ranking.map((seat) => {
    const player = view.players[seat];
    const groups = lootGroups(player);
    const bonus = seat === bonusTo ? result.scores[seat] - player.loot_value : 0;
    return el("li", { dataset: { seat, lootValue: player.loot_value, bonus, total: result.scores[seat] } },
      el("strong", {}, ctx.who(seat)), player.alive ? "" : " (out: cannot win)", ": ",
      groups.lines.join(" + ") || "no loot",
      bonus ? [` = ${money(player.loot_value)}, + ${money(bonus)} diamond bonus (${player.diamond_cards} diamond cards, the most)`] : "",
      " = ", el("strong", {}, money(result.scores[seat])),
      player.alive && player.wounds ? `, ${player.wounds} wound${player.wounds > 1 ? "s" : ""}` : "");
  });
  return el("div", { className: "score-breakdown" },
    el("h3", {}, "How it was counted"),
    el("ol", {}, rows),
    el("p", { className: "muted" }, bonusTo === null || bonusTo === undefined
      ? "No diamond bonus: nobody who could win held the most diamond cards alone."
      : `The diamond bonus goes to whoever holds the most diamond cards among those who could win (a tie: nobody). Equal totals: the fewer wounds.`));
}
