// Pieces shared by the table and the replay: seats, the event log, the result, ruleset data.
import { get } from "./api.js";
import { boardFor } from "./boards/index.js";
import { $, clear, el, words } from "./dom.js";
import { describe, endReason, makeContext } from "./words.js";

const rulesetCache = new Map();
/** ruleset id -> its labels once read: what the seats list names seats and bots with */
const labelsRead = new Map();

/** GET /v1/rulesets/{id} with its labels (GET /v1/rulesets/{id}/labels) as `labels`, once per page. */
export async function rulesetInfo(rulesetId) {
  if (!rulesetCache.has(rulesetId)) {
    const path = `/v1/rulesets/${encodeURIComponent(rulesetId)}`;
    rulesetCache.set(rulesetId, Promise.all([get(path), get(`${path}/labels`)]).then(([info, labels]) => {
      labelsRead.set(rulesetId, labels);
      return { ...info, labels };
    }));
  }
  return rulesetCache.get(rulesetId);
}

let titlesRead = null;

/** ruleset id -> its title ("Whipca$h"), from GET /v1/rulesets once per page; empty if it cannot be read. */
export function rulesetTitles() {
  titlesRead ??= get("/v1/rulesets").then((page) => new Map(page.rulesets.map((ruleset) => [ruleset.id, ruleset.title])))
    .catch(() => new Map());
  return titlesRead;
}

/**
 * A player id as a person reads it: a bot's (`bot:<bot>#<tag>`) as the bot's name and its tag ("Heuristic
 * bot #1", from the ruleset's labels); a person's id is the name they chose.
 */
export function playerWords(player, labels) {
  const bot = /^bot:([^#]+)(?:#(.*))?$/.exec(player);
  if (!bot) return player;
  const name = ((labels || {}).terms || {}).bots?.[bot[1]] ?? `${words(bot[1])} bot`;
  return bot[2] ? `${name} #${bot[2]}` : name;
}

export function gameIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

export function contextFor(game, info) {
  const board = boardFor(game.ruleset);
  return makeContext(game.seats, board.spaceName(game.view, info && info.data), board.otherNames?.(game.view) || {},
    board.currency || "$", (info && info.labels) || labelsRead.get(game.ruleset));
}

export { statusWords } from "./words.js";

/**
 * The seats list: name, bot, whose decision it is, the deadline. `past`: a replay's position, where nobody
 * is thinking now (a bot's pending decision reads "to decide" like a person's).
 */
export function drawSeats(list, game, { viewerSeat = null, deadline = null, past = false } = {}) {
  clear(list);
  const waiting = new Set(game.waiting_for || []);
  const ctx = contextFor(game, null);
  for (const seat of game.seats) {
    const status = [];
    if (waiting.has(seat.seat)) status.push(seat.bot && !past ? "bot thinking…" : "to decide");
    if (waiting.has(seat.seat) && !seat.bot && deadline) status.push(`deadline ${deadline}`);
    list.append(el("li", {
      className: `seat seat-${seat.seat % 8} ${waiting.has(seat.seat) ? "waiting" : ""} ${seat.seat === viewerSeat ? "me" : ""}`,
      dataset: { seat: seat.seat },
    }, el("span", { className: "seat-name" }, seat.open ? ctx.labels.seats.open_seat ?? "(open seat)" : ctx.who(seat.seat)),
    seat.bot ? el("span", { className: "badge bot", title: ctx.term("bot_about", seat.bot) }, ctx.term("bots", seat.bot)) : null,
    seat.seat === viewerSeat ? el("span", { className: "badge" }, "you") : null,
    // The public hint count (hints on): every seat's hints and own win-chance asks, counted once the game moved on.
    game.hint_counts && !past ? el("span", { className: "badge hints", title: "hints asked (public)" },
      `${game.hint_counts[seat.seat] ?? 0} hint${game.hint_counts[seat.seat] === 1 ? "" : "s"}`) : null,
    el("span", { className: "seat-status" }, status.join(" · "))));
  }
}

/** One log line for an event entry ({cursor, version, event}). */
export function logLine(entry, ctx, seats) {
  const event = entry.event;
  const actor = typeof event.seat === "number" ? seats[event.seat] : null;
  return el("li", {
    className: `${event.visible_to ? "private" : ""} ${actor && actor.bot ? "by-bot" : ""} ${event.type === "timed_out" ? "timed-out" : ""}`,
    dataset: { cursor: entry.cursor, version: entry.version, type: event.type },
  }, describe(event, ctx), event.visible_to ? el("span", { className: "badge" }, "only you") : null);
}

/** Who won and why, in one sentence: "Ann wins: the turn limit was reached." */
export function winnerSentence(result, ctx) {
  const who = result.winners.length
    ? `${result.winners.map(ctx.who).join(" and ")} ${result.winners.length > 1 ? "share the win" : "wins"}`
    : "Nobody wins";
  return `${who}: ${endReason(result.reason, ctx, result.details || {})}.`;
}

/** The result, with how it was counted where the ruleset's board says (`explainResult(result, view, ctx)`). */
export function drawResult(panel, container, result, ctx, game = null) {
  panel.hidden = !result;
  clear(container);
  if (!result) return;

  container.append(
    el("p", { className: "winners" }, winnerSentence(result, ctx)),
    el("ol", { className: "ranking" }, result.ranking.map((seat) => el("li", {},
      `${ctx.who(seat)}: ${result.scores[seat] !== undefined ? ctx.money(result.scores[seat]) : ""}`))));
  const explain = game && game.view ? boardFor(game.ruleset).explainResult : null;
  if (!explain) return;
  try {
    container.append(explain(result, game.view, ctx));
  } catch (error) {
    console.error(error); // the ranking above still says who won and with what
  }
}

/** The page's heading and the tab's title; `yourTurn`: the tab says so first ("▶ Your turn · …"), seen from other tabs. */
export function setTitle(game, info, { yourTurn = false } = {}) {
  const title = `${info ? info.title : game.ruleset} · game ${game.id}`;
  $("game-title").textContent = title;
  document.title = yourTurn ? `▶ Your turn · ${title}` : title;
}

/** The replay's step showing `version`, given the versions of its steps (`[0, ...every version with events]`, in
 * order): the last step at or before it. */
export function stepOfVersion(stepVersions, version) {
  let step = 0;
  stepVersions.forEach((stepVersion, index) => { if (stepVersion <= version) step = index; });
  return step;
}
