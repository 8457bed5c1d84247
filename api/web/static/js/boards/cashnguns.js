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

/** A rectangle (relative to the table's box) grown by `margin` on every side (shrunk when negative). */
function grown(rect, margin) {
  return { left: rect.left - margin, top: rect.top - margin, right: rect.right + margin, bottom: rect.bottom + margin };
}

/**
 * Where the segment a→b is inside `rect`, as [t0, t1] along it (0 at a, 1 at b), or null when it stays
 * outside (touching an edge or a corner is outside): Liang–Barsky clipping.
 */
function clipped([ax, ay], [bx, by], rect) {
  let [t0, t1] = [0, 1];
  const [dx, dy] = [bx - ax, by - ay];
  for (const [p, q] of [[-dx, ax - rect.left], [dx, rect.right - ax], [-dy, ay - rect.top], [dy, rect.bottom - ay]]) {
    if (p === 0) {
      if (q <= 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return null;
  }
  return [t0, t1];
}

/**
 * The shortest way from `from` to `to` that never enters `keepOut`: straight when it can, else by way of
 * the rectangle's corners (at most three: around the far side of a box takes two).
 */
function around(from, to, keepOut) {
  const inner = grown(keepOut, -1); // running along an edge, corner to corner, is not going through
  const corners = [[keepOut.left, keepOut.top], [keepOut.right, keepOut.top], [keepOut.right, keepOut.bottom],
    [keepOut.left, keepOut.bottom]];
  const length = (points) => points.slice(1).reduce((sum, point, i) => sum + Math.hypot(point[0] - points[i][0],
    point[1] - points[i][1]), 0);
  const clear = (points) => points.slice(1).every((point, i) => clipped(points[i], point, inner) === null);
  let best = [from, to];
  if (clear(best)) return best;
  let bestLength = Infinity;
  const tryVia = (via) => {
    const points = [from, ...via, to];
    if (clear(points) && length(points) < bestLength) [best, bestLength] = [points, length(points)];
  };
  for (const a of corners) {
    tryVia([a]);
    for (const b of corners) {
      if (b === a) continue;
      tryVia([a, b]);
      for (const c of corners) if (c !== a && c !== b) tryVia([a, b, c]);
    }
  }
  return best;
}

/** `points` cut where they first enter `rect` (the target's box: the arrow's head rests on its edge). */
function cutAt(points, rect) {
  for (let i = 1; i < points.length; i += 1) {
    const inside = clipped(points[i - 1], points[i], rect);
    if (inside === null) continue;
    const [[ax, ay], [bx, by]] = [points[i - 1], points[i]];
    return [...points.slice(0, i), [ax + (bx - ax) * inside[0], ay + (by - ay) * inside[0]]];
  }
  return points;
}

/**
 * Draws the aim arrows into `arrows` for the table as laid out now: each from its gangster to the edge of
 * the target's box, going around the felt's loot and text (never across them, so both stay readable);
 * each aim in its own lane around them, and each a little to its right, so that aims along one side, or
 * two gangsters aiming at each other, show apart. Marks the drawing `data-routed` (the tests wait on it).
 */
function routeAims(table, arrows, middle, aims) {
  const origin = table.getBoundingClientRect();
  if (!origin.width || !arrows.getClientRects().length) return; // not laid out, or a phone's (no arrows)
  const boxOf = (node) => {
    const rect = node.getBoundingClientRect();
    return { left: rect.left - origin.left, top: rect.top - origin.top, right: rect.right - origin.left,
      bottom: rect.bottom - origin.top };
  };
  const centre = (rect) => [(rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2];
  const boxes = new Map([...table.querySelectorAll(".gangster")].map((node) => [Number(node.dataset.seat), boxOf(node)]));
  const keepOut = boxOf(middle);
  arrows.setAttribute("viewBox", `0 0 ${origin.width} ${origin.height}`);
  arrows.querySelectorAll(".aim").forEach((old) => old.remove());
  aims.forEach(([seat, target], lane) => {
    let [from, to] = [centre(boxes.get(seat)), centre(boxes.get(target))];
    const length = Math.hypot(to[0] - from[0], to[1] - from[1]) || 1;
    const [shiftX, shiftY] = [(-(to[1] - from[1]) / length) * 5, ((to[0] - from[0]) / length) * 5];
    [from, to] = [[from[0] + shiftX, from[1] + shiftY], [to[0] + shiftX, to[1] + shiftY]];
    const points = cutAt(around(from, to, grown(keepOut, 10 + 6 * lane)), grown(boxes.get(target), 3));
    arrows.append(svg("path", { d: points.map(([x, y], i) => `${i ? "L" : "M"} ${x.toFixed(1)} ${y.toFixed(1)}`).join(" "),
      className: `aim seat-${seat % 8}`, "marker-end": "url(#arrowhead)", dataset: { from: seat, to: target } }));
  });
  arrows.dataset.routed = String(aims.length);
}

export function draw(view, ctx) {
  const count = view.players.length;
  const centres = view.players.map((_, seat) => place(seat, count));
  const arrows = svg("svg", { className: "aims" },
    svg("defs", {}, svg("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "5",
      markerHeight: "5", orient: "auto-start-reverse" }, svg("path", { d: "M 0 0 L 10 5 L 0 10 z" }))));
  // [seat, target] of each revealed aim; the arrows need the laid-out boxes, so they are drawn once the
  // table is on the page, and again whenever its size changes
  const aims = view.players.flatMap((player, seat) =>
    player.alive && player.target !== null && player.target !== undefined ? [[seat, player.target]] : []);
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
  const table = el("div", { className: "gang-table" }, arrows, el("div", { className: "felt" }, middle), gangsters);
  if (aims.length) {
    const observer = new ResizeObserver(() => {
      if (!table.isConnected) observer.disconnect(); // the board was drawn again: this one is gone
      else routeAims(table, arrows, middle, aims);
    });
    observer.observe(table);
    observer.observe(middle);
  }
  return table;
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
