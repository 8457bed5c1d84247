// A replay: the table as it was at each step of a game's event log, forward and back, with a link per step.
import { allEvents, get, tokens } from "./api.js";
import { drawBoard } from "./boards/index.js";
import { $, clear, el, showProblem } from "./dom.js";
import { contextFor, drawResult, drawSeats, gameIdFromPath, logLine, rulesetInfo, setTitle } from "./parts.js";
import { describe } from "./words.js";

const gameId = gameIdFromPath();
const replay = { game: null, info: null, events: [], step: 0, ctx: null, views: new Map(), seenBy: null, drawn: 0 };

/** The token this browser holds for the game, if any (a seat sees its own secrets again). */
function token() {
  const game = tokens.game(gameId);
  if (!game) return null;
  const seats = Object.values(game.seats || {});
  return seats.length === 1 ? seats[0].token : game.creator_token || null;
}

/** The version the table had after `step` events (step 0: as created). */
const versionAt = (step) => (step === 0 ? 0 : replay.events[step - 1].version);

/** GET /views/{version}, once per version and viewer (a past view never changes). */
function viewAt(version) {
  const key = `${version}/${replay.seenBy ?? ""}`;
  if (!replay.views.has(key)) {
    const query = replay.seenBy === null ? "" : `?seat=${replay.seenBy}`;
    replay.views.set(key, get(`/v1/games/${encodeURIComponent(gameId)}/views/${version}${query}`,
      { token: replay.seenBy === null ? token() : null }));
  }
  return replay.views.get(key);
}

function stepLink(step) {
  const query = new URLSearchParams({ step: String(step) });
  if (replay.seenBy !== null) query.set("seat", String(replay.seenBy));
  return `${location.pathname}?${query}`;
}

async function show(step) {
  const target = Math.max(0, Math.min(step, replay.events.length));
  replay.step = target;
  document.body.dataset.step = String(target);
  delete document.body.dataset.drawnStep;
  $("step").textContent = String(target);
  $("scrub").value = String(target);
  $("step-link").href = stepLink(target);
  history.replaceState(null, "", stepLink(target));
  const log = $("log");
  for (const [index, line] of [...log.children].entries()) line.hidden = index >= target;
  const current = log.children[target - 1];
  // Scroll the log alone (scrollIntoView would scroll the page too, away from the buttons).
  if (current) log.scrollTop = Math.max(0, current.offsetTop - log.clientHeight / 2);
  const currentEvent = replay.events[target - 1];
  $("current").textContent = currentEvent ? describe(currentEvent.event, replay.ctx) : "The game before its first event.";
  $("first").disabled = $("prev").disabled = target === 0;
  $("next").disabled = $("last").disabled = target === replay.events.length;
  const version = versionAt(target);
  try {
    const past = await viewAt(version);
    if (replay.step !== target) return; // a later click won
    const game = { ...replay.game, view: past.view, waiting_for: past.waiting_for };
    const ctx = contextFor(game, replay.info);
    $("board-title").textContent = `The table at step ${target} (move ${version})`;
    drawSeats($("seats"), game);
    if (past.view) clear($("board")).append(drawBoard(game.ruleset, past.view, ctx, replay.info && replay.info.data));
    else clear($("board")).append(el("p", { className: "muted" }, "The table was waiting for players."));
    drawResult($("result-panel"), $("result"), past.result, ctx, game);
    document.body.dataset.drawnStep = String(target);
    document.body.dataset.drawnVersion = String(version);
  } catch (error) {
    showProblem(error);
  }
}

/** Over: finished, or aborted (stopped by the service): nobody plays it any more, nothing is secret. */
const isOver = (game) => game.status === "finished" || game.status === "aborted";

function seenByChoices(game) {
  // Once a game is over every seat's view may be shown; while it runs, this browser's own only.
  if (!isOver(game)) return;
  const select = clear($("seen-by"));
  select.append(el("option", { value: "" }, token() ? "this browser's seat" : "a spectator"));
  for (const seat of game.seats) select.append(el("option", { value: String(seat.seat) }, seat.name ?? `seat ${seat.seat}`));
  $("seen-by-label").hidden = false;
  if (replay.seenBy !== null) select.value = String(replay.seenBy);
  select.addEventListener("change", () => {
    replay.seenBy = select.value === "" ? null : Number(select.value);
    show(replay.step);
  });
}

async function start() {
  try {
    const seen = token();
    const game = await get(`/v1/games/${encodeURIComponent(gameId)}`, { token: seen });
    const info = await rulesetInfo(game.ruleset).catch(() => null);
    replay.game = game;
    replay.info = info;
    replay.ctx = contextFor(game, info);
    replay.events = await allEvents(gameId, seen);
    setTitle(game, info);
    const query = new URLSearchParams(location.search);
    if (query.has("seat") && isOver(game)) replay.seenBy = Number(query.get("seat"));
    seenByChoices(game);
    $("steps").textContent = String(replay.events.length);
    $("scrub").max = String(replay.events.length);
    const log = clear($("log"));
    replay.events.forEach((entry, index) => {
      const line = logLine(entry, replay.ctx, game.seats);
      line.classList.add("jump");
      line.addEventListener("click", () => show(index + 1));
      log.append(line);
    });
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(replay.step - 1));
    $("next").addEventListener("click", () => show(replay.step + 1));
    $("last").addEventListener("click", () => show(replay.events.length));
    // Dragging the slider names the step; letting go shows it (one view read, not one per step passed).
    $("scrub").addEventListener("input", () => { $("step").textContent = $("scrub").value; });
    $("scrub").addEventListener("change", () => show(Number($("scrub").value)));
    document.addEventListener("keydown", (key) => {
      if (key.target instanceof HTMLInputElement || key.target instanceof HTMLSelectElement) return;
      if (key.key === "ArrowRight") show(replay.step + 1);
      if (key.key === "ArrowLeft") show(replay.step - 1);
    });
    const asked = Number(query.get("step"));
    document.body.dataset.ready = "true";
    await show(Number.isInteger(asked) && asked > 0 ? asked : 0);
  } catch (error) {
    showProblem(error);
  }
}

start();
