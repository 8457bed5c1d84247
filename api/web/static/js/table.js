// The table of one game, as a seat (its token from this browser's storage) or as a spectator.
import { mountHints, mountLiveChances } from "./advice.js";
import { follow, get, post, Problem, tokens } from "./api.js";
import { boardFor, drawBoard } from "./boards/index.js";
import { mountChat } from "./chat.js";
import { controlsBusy, drawDecisions } from "./controls.js";
import { $, clear, el, phone, show, showProblem } from "./dom.js";
import {
  contextFor, drawResult, drawSeats, gameIdFromPath, logLine, rulesetInfo, setTitle, statusWords, winnerSentence,
} from "./parts.js";

const gameId = gameIdFromPath();
const page = { game: null, info: null, decisions: [], seen: new Set(), entries: [], deadlineTimer: null };

/** The seat this page plays, and its token. A shared seat link carries the token after '#'. */
function whoAmI() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  if (fragment.has("token") && fragment.has("seat")) {
    const seat = Number(fragment.get("seat"));
    tokens.save(gameId, { seats: { [seat]: { token: fragment.get("token") } } });
    history.replaceState(null, "", `${location.pathname}?seat=${seat}`);
    return { seat, token: fragment.get("token") };
  }
  if (query.has("seat")) {
    const seat = Number(query.get("seat"));
    const token = tokens.seatToken(gameId, seat);
    if (token) return { seat, token };
    showProblem(new Error(`This browser holds no token for seat ${seat}: watching as a spectator.`));
  }
  return { seat: null, token: null };
}

const me = whoAmI();
const hints = me.seat === null ? null : mountHints($("hint-box"), { gameId, seat: me.seat, token: me.token });
const liveChances = mountLiveChances($("win-chances-panel"), {
  gameId, seat: me.seat, token: me.token, names: () => contextFor(page.game, page.info).who,
});

function deadlineText(deadline) {
  if (!deadline) return null;
  const seconds = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  return `${seconds} s left`;
}

function render() {
  const { game, info } = page;
  const ctx = contextFor(game, info);
  const yourTurn = me.seat !== null && game.status === "active" && (game.waiting_for || []).includes(me.seat);
  setTitle(game, info, { yourTurn });
  document.body.dataset.yourTurn = String(yourTurn);
  drawOver(game, ctx);
  $("game-role").textContent = me.seat === null ? "spectator" : `playing as ${ctx.who(me.seat)}`;
  $("game-version").textContent = String(game.version);
  $("game-status").textContent = statusWords(game.status);
  document.body.dataset.version = String(game.version);
  document.body.dataset.status = game.status;
  drawSeats($("seats"), game, { viewerSeat: me.seat, deadline: deadlineText(game.deadline) });
  const waiting = game.status === "waiting" || game.view === null;
  show($("waiting-panel"), waiting);
  if (waiting) {
    const open = game.seats.filter((seat) => seat.open).length;
    $("waiting-text").textContent = `${open} open seat${open === 1 ? "" : "s"}: the game starts when they are taken.`;
    show($("start-controls"), Boolean(creatorToken()));
    clear($("board"));
  } else {
    clear($("board")).append(drawBoard(game.ruleset, game.view, ctx, info && info.data));
  }
  const privateFacts = boardFor(game.ruleset).privateFacts;
  const secret = me.seat !== null && privateFacts ? privateFacts(game.view) : null;
  show($("private-panel"), Boolean(secret));
  if (secret) clear($("private")).append(secret);
  show($("decisions-panel"), me.seat !== null);
  if (me.seat !== null) drawDecisions($("decisions"), page.decisions, ctx, act);
  if (hints && game.hints) hints.update(game, page.decisions, $("decisions"));
  liveChances.update(game);
  show($("to-bot"), me.seat !== null && game.status === "active");
  drawResult($("result-panel"), $("result"), game.result, ctx, game);
  drawLog(ctx);
}

/** Once the game is over: who won, first thing on the page, with the way to its replay and back to the lobby. */
function drawOver(game, ctx) {
  const over = game.status === "finished" || game.status === "aborted";
  show($("over-panel"), over);
  if (!over) return;
  $("over-line").textContent = game.result ? winnerSentence(game.result, ctx) : "This game was stopped before its end.";
  $("over-replay").href = `/replay/${encodeURIComponent(game.id)}`;
  // A stopped game has no result to analyse (the API answers 409): only a finished one links to its analysis.
  const more = $("over-more");
  if (game.status === "finished" && !more.querySelector("#over-analysis")) {
    more.append(" · ", el("a", { id: "over-analysis", href: `/analysis/${encodeURIComponent(game.id)}` }, "Was it luck? See the analysis"));
  }
}

/** Appends the log lines not drawn yet (the first events may come before the seats' names are known). */
function drawLog(ctx = contextFor(page.game, page.info)) {
  const log = $("log");
  while (log.children.length < page.entries.length) {
    log.append(logLine(page.entries[log.children.length], ctx, page.game.seats));
  }
  log.scrollTop = log.scrollHeight; // the log scrolls, not the page
  const last = page.entries[page.entries.length - 1];
  if (last) document.body.dataset.loggedVersion = String(last.version);
}

let refreshing = null;
let again = false;

/** Reads the game (and the seat's decisions) again; calls made meanwhile coalesce into one more read. */
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      try {
        const game = await get(`/v1/games/${encodeURIComponent(gameId)}`, { token: me.token });
        let decisions = [];
        if (me.seat !== null && game.status === "active") {
          const pending = await get(`/v1/games/${encodeURIComponent(gameId)}/decisions`, { token: me.token });
          if (pending.version !== game.version) again = true;
          decisions = pending.version === game.version ? pending.decisions : [];
        }
        if (!page.info) page.info = await rulesetInfo(game.ruleset).catch(() => null);
        page.game = game;
        page.decisions = decisions;
        render();
      } catch (error) {
        showProblem(error);
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

function addEntries(entries) {
  for (const entry of entries) {
    if (page.seen.has(entry.cursor)) continue;
    page.seen.add(entry.cursor);
    page.entries.push(entry);
  }
  if (page.game) drawLog();
}

function creatorToken() {
  const stored = tokens.game(gameId);
  return (stored && stored.creator_token) || null;
}

/**
 * Sends one action. A decision with an `id` is answered with its decision tag (`If-Match: "d:<id>"`),
 * which stays valid while only other seats move; otherwise with the version it was read at.
 */
async function act(action, decision) {
  const container = $("decisions");
  controlsBusy(container, true);
  showProblem(null);
  try {
    const answer = await post(`/v1/games/${encodeURIComponent(gameId)}/actions`, action, {
      token: me.token, ifMatch: decision && decision.id ? `d:${decision.id}` : page.game.version,
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    addEntries(answer.events);
  } catch (error) {
    // 412: someone (a bot) moved first; the refresh shows the new decision.
    if (!(error instanceof Problem && error.status === 412)) showProblem(error);
  }
  await refresh();
  // The refresh redrew the controls; if the game did not move (a refused action), they are live again.
  controlsBusy(container, false);
}

/** A seat-changing request (start, hand a seat to a bot): its answer shows through the stream. */
async function seatChange(path, body, token) {
  showProblem(null);
  try {
    await post(`/v1/games/${encodeURIComponent(gameId)}/${path}`, body, { token });
  } catch (error) {
    showProblem(error);
  }
  await refresh();
}

$("start-bots").addEventListener("click", () => seatChange("start", { fill: "bot", bot: "heuristic" }, creatorToken()));
$("start-remove").addEventListener("click", () => seatChange("start", { fill: "remove" }, creatorToken()));
$("to-bot").addEventListener("click", () => seatChange(`seats/${me.seat}/bot`, { bot: "heuristic" }, me.token));

follow(gameId, me.token, {
  onState: () => refresh(),
  onEvent: (line) => {
    addEntries([line]);
    refresh();
  },
  onEnd: () => {
    $("live").textContent = "game over";
    document.body.dataset.live = "ended";
    refresh();
  },
  onLive: (live) => {
    $("live").textContent = live ? "live" : "reconnecting…";
    document.body.dataset.live = String(live);
  },
  onError: (error) => showProblem(error),
});

// A phone's layout draws some boards differently: crossing its width (a turned phone, a resized window) redraws.
phone.addEventListener("change", () => { if (page.game) render(); });

mountChat($("chat"), { gameId, seat: me.seat, token: me.token, creatorToken: creatorToken() });

page.deadlineTimer = setInterval(() => {
  if (page.game && page.game.deadline && page.game.status === "active") {
    drawSeats($("seats"), page.game, { viewerSeat: me.seat, deadline: deadlineText(page.game.deadline) });
  }
}, 1000);
