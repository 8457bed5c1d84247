// A square ring of spaces (as on a Monopoly board) with the middle free for the table's state.
import { el, phone } from "../dom.js";

/** Grid cell (row, column; 1-based) of ring position i on a rows x columns grid, clockwise from the top left. */
export function ringCell(i, rows, columns) {
  const top = columns - 1;
  const right = top + rows - 1;
  const bottom = right + columns - 1;
  if (i < top) return [1, i + 1];
  if (i < right) return [i - top + 1, columns];
  if (i < bottom) return [rows, columns - (i - right)];
  return [rows - (i - bottom), 1];
}

/**
 * At most this many columns: a cell is as wide as the longest word of its name (about 6 rem), and at a
 * laptop's 1280 px the board panel holds nine of them; a longer ring grows taller, never wider (a sideways
 * scrollbar hid Hitchiker's and Whipca$h's right column).
 */
export const MAX_RING_COLUMNS = 9;

/** The smallest grid, near square but taller rather than wider, whose border holds `count` spaces: [rows, columns]. */
export function ringShape(count) {
  let rows = 3;
  let columns = 3;
  while (2 * (rows + columns) - 4 < count) {
    if (rows > columns && columns < MAX_RING_COLUMNS) columns += 1;
    else rows += 1;
  }
  return [rows, columns];
}

/** Pawns (one per seat on that space), labelled so that no two seats look alike (`ctx.pawn`). */
export function pawns(seatsHere, ctx) {
  return el("div", { className: "pawns" }, seatsHere.map((seat) => el("span", {
    className: `pawn seat-${seat % 8}`, title: ctx.who(seat), dataset: { seat },
  }, ctx.pawn(seat))));
}

/**
 * Draws `spaces` (each {title, lines: [text], className, seats: [seat numbers]}) around a ring and
 * `middle` (a node) inside it.
 */
export function ring(spaces, middle, ctx) {
  const [rows, columns] = ringShape(spaces.length);
  const grid = el("div", { className: "ring", style: {
    gridTemplateColumns: `repeat(${columns}, minmax(min-content, 1fr))`, gridTemplateRows: `repeat(${rows}, minmax(4.2rem, auto))`,
  } });
  spaces.forEach((space, index) => {
    const [row, column] = ringCell(index, rows, columns);
    grid.append(el("div", {
      className: `space ${space.className || ""}`, dataset: { index }, title: space.tooltip || space.title,
      style: { gridRow: String(row), gridColumn: String(column) },
    }, el("span", { className: "space-index" }, String(index)), el("strong", {}, space.title),
    (space.lines || []).map((line) => el("small", {}, line)), pawns(space.seats || [], ctx)));
  });
  if (phone.matches) {
    // The ring scrolls sideways on a phone; its middle (the money tables) would scroll out of sight with it,
    // cut off ("$21,987 pa…"): it goes under the ring instead, as wide as the screen.
    return el("div", { className: "ring-board" }, el("div", { className: "ring-scroll" }, grid),
      el("div", { className: "ring-middle below" }, middle));
  }
  grid.append(el("div", { className: "ring-middle", style: {
    gridRow: `2 / ${rows}`, gridColumn: `2 / ${columns}`,
  } }, middle));
  return grid;
}

/** Seats standing on each position. */
export function seatsAt(players, positionOf = (player) => player.position) {
  const at = new Map();
  players.forEach((player, seat) => {
    const position = positionOf(player);
    if (position === null || position === undefined) return;
    if (!at.has(position)) at.set(position, []);
    at.get(position).push(seat);
  });
  return at;
}

/**
 * Whose turn and the phase, as facts rows; once the game is over (every ruleset's `phase` "over") just that,
 * never "To play: Bot 2 · Phase over" (the result panel says who won).
 */
export function turnFacts(view, label, seat, ctx) {
  if (view.phase === "over") return [["Game", "over"]];
  return [[label, seat === null || seat === undefined ? "–" : ctx.who(seat)], ["Phase", ctx.term("phases", view.phase)]];
}

/** A small table: rows of [label, value]. */
export function facts(rows) {
  return el("dl", { className: "facts" }, rows.filter(Boolean).flatMap(([term, value]) => [el("dt", {}, term),
    el("dd", {}, value)]));
}

/** "How it was counted": a table (header cells, then per seat of the ranking its cells, the total bold) and a note. */
export function scoreTable(result, headers, cellsOf, note) {
  return el("div", { className: "score-breakdown" }, el("h3", {}, "How it was counted"),
    el("table", { className: "numbers" }, el("thead", {}, el("tr", {}, headers.map((title) => el("th", {}, title)))),
      el("tbody", {}, result.ranking.map((seat) => el("tr", { dataset: { seat, total: result.scores[seat] } },
        cellsOf(seat).map((cell, index) => el("td", { className: index === 1 ? "total" : "" }, cell)))))),
    el("p", { className: "muted" }, note));
}
