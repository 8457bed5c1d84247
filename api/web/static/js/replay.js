// A replay: step through a game's event log, event by event.
import { allEvents, get, tokens } from "./api.js";
import { drawBoard } from "./boards/index.js";
import { $, clear, showProblem } from "./dom.js";
import { contextFor, drawResult, drawSeats, gameIdFromPath, logLine, rulesetInfo, setTitle } from "./parts.js";
import { describe } from "./words.js";

const gameId = gameIdFromPath();
const replay = { game: null, events: [], step: 0, ctx: null };

/** The token this browser holds for the game, if any (a seat sees its own secrets again). */
function token() {
  const game = tokens.game(gameId);
  if (!game) return null;
  const seats = Object.values(game.seats || {});
  return seats.length === 1 ? seats[0].token : game.creator_token || null;
}

function show(step) {
  replay.step = Math.max(0, Math.min(step, replay.events.length));
  $("step").textContent = String(replay.step);
  document.body.dataset.step = String(replay.step);
  const log = clear($("log"));
  replay.events.slice(0, replay.step).forEach((entry) => log.append(logLine(entry, replay.ctx, replay.game.seats)));
  log.scrollTop = log.scrollHeight; // the log scrolls, not the page
  const currentEvent = replay.events[replay.step - 1];
  $("current").textContent = currentEvent ? describe(currentEvent.event, replay.ctx) : "The game before its first event.";
  drawResult($("result-panel"), $("result"), replay.step === replay.events.length ? replay.game.result : null, replay.ctx);
  $("first").disabled = $("prev").disabled = replay.step === 0;
  $("next").disabled = $("last").disabled = replay.step === replay.events.length;
}

async function start() {
  try {
    const seen = token();
    const game = await get(`/v1/games/${encodeURIComponent(gameId)}`, { token: seen });
    const info = await rulesetInfo(game.ruleset).catch(() => null);
    replay.game = game;
    replay.ctx = contextFor(game, info);
    replay.events = await allEvents(gameId, seen);
    setTitle(game, info);
    $("steps").textContent = String(replay.events.length);
    drawSeats($("seats"), { ...game, waiting_for: [] });
    clear($("board")).append(drawBoard(game.ruleset, game.view, replay.ctx, info && info.data));
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(replay.step - 1));
    $("next").addEventListener("click", () => show(replay.step + 1));
    $("last").addEventListener("click", () => show(replay.events.length));
    document.addEventListener("keydown", (key) => {
      if (key.key === "ArrowRight") show(replay.step + 1);
      if (key.key === "ArrowLeft") show(replay.step - 1);
    });
    show(0);
    document.body.dataset.ready = "true";
  } catch (error) {
    showProblem(error);
  }
}

start();
