// A replay: the table as it was after each move of a game, forward and back, with a link per step.
// A step is one action (one version): the API keeps a view per version, not per event, so the events an
// action caused are shown together, highlighted, beside the board as it stood after them (docs/web-table.md).
import { allEvents, get, tokens } from "./api.js";
import { drawBoard } from "./boards/index.js";
import { $, clear, el, phone, showProblem } from "./dom.js";
import { contextFor, drawResult, drawSeats, gameIdFromPath, logLine, rulesetInfo, setTitle } from "./parts.js";
import { describe } from "./words.js";

const gameId = gameIdFromPath();
const replay = { game: null, info: null, events: [], steps: [], step: 0, ctx: null, views: new Map(), seenBy: null };

/** The token this browser holds for the game, if any (a seat sees its own secrets again). */
function token() {
  const game = tokens.game(gameId);
  if (!game) return null;
  const seats = Object.values(game.seats || {});
  return seats.length === 1 ? seats[0].token : game.creator_token || null;
}

/**
 * The steps of the game: step 0 is the table as created (with any events of version 0), then one step per
 * version that has events, each {version, first, end}: its events are `replay.events[first..end)`.
 */
function stepsOf(events) {
  const steps = [{ version: 0, first: 0, end: 0 }];
  events.forEach((entry, index) => {
    const last = steps[steps.length - 1];
    if (entry.version === last.version) last.end = index + 1;
    else steps.push({ version: entry.version, first: index, end: index + 1 });
  });
  return steps;
}

/** The step that shows the event at `index` of the log. */
const stepOfEvent = (index) => replay.steps.findIndex((step) => index >= step.first && index < step.end);
const lastStep = () => replay.steps.length - 1;

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

/** The step's events in words, one line each (an action often causes several: a roll, a move, a payment). */
function drawCurrent(step) {
  const events = replay.events.slice(step.first, step.end);
  const current = clear($("current"));
  if (!events.length) current.append(el("li", {}, "The game before its first move."));
  for (const entry of events) current.append(el("li", {}, describe(entry.event, replay.ctx)));
}

async function show(step) {
  const target = Math.max(0, Math.min(step, lastStep()));
  const { version, first, end } = replay.steps[target];
  replay.step = target;
  document.body.dataset.step = String(target);
  delete document.body.dataset.drawnStep;
  $("step").textContent = String(target);
  $("scrub").value = String(target);
  $("step-link").href = stepLink(target);
  history.replaceState(null, "", stepLink(target));
  const log = $("log");
  for (const [index, line] of [...log.children].entries()) {
    line.hidden = index >= end;
    line.classList.toggle("current", index >= first && index < end);
  }
  const current = log.children[end - 1];
  // Scroll the log alone (scrollIntoView would scroll the page too, away from the buttons).
  if (current) log.scrollTop = Math.max(0, current.offsetTop - log.clientHeight / 2);
  drawCurrent(replay.steps[target]);
  $("first").disabled = $("prev").disabled = target === 0;
  $("next").disabled = $("last").disabled = target === lastStep();
  $("board").classList.add("stale"); // greyed while the step's view loads: never an old board read as this step's
  try {
    const past = await viewAt(version);
    if (replay.step !== target) return; // a later click won
    const game = { ...replay.game, view: past.view, waiting_for: past.waiting_for };
    const ctx = contextFor(game, replay.info);
    $("board-title").textContent = target === 0 ? "The table as created" : `The table after move ${version}`;
    drawSeats($("seats"), game, { past: true });
    if (past.view) clear($("board")).append(drawBoard(game.ruleset, past.view, ctx, replay.info && replay.info.data));
    else clear($("board")).append(el("p", { className: "muted" }, "The table was waiting for players."));
    drawResult($("result-panel"), $("result"), past.result, ctx, game);
    $("board").classList.remove("stale");
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
    replay.steps = stepsOf(replay.events);
    setTitle(game, info);
    $("to-analysis").href = `/analysis/${encodeURIComponent(gameId)}`;
    $("analysis-link").hidden = game.status !== "finished"; // only a finished game is analysed
    const query = new URLSearchParams(location.search);
    if (query.has("seat") && isOver(game)) replay.seenBy = Number(query.get("seat"));
    seenByChoices(game);
    $("steps").textContent = String(lastStep());
    $("scrub").max = String(lastStep());
    const log = clear($("log"));
    replay.events.forEach((entry, index) => {
      const line = logLine(entry, replay.ctx, game.seats);
      line.classList.add("jump");
      line.addEventListener("click", () => show(stepOfEvent(index)));
      log.append(line);
    });
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(replay.step - 1));
    $("next").addEventListener("click", () => show(replay.step + 1));
    $("last").addEventListener("click", () => show(lastStep()));
    // Dragging the slider names the step; letting go shows it (one view read, not one per step passed).
    $("scrub").addEventListener("input", () => { $("step").textContent = $("scrub").value; });
    $("scrub").addEventListener("change", () => show(Number($("scrub").value)));
    document.addEventListener("keydown", (key) => {
      if (key.target instanceof HTMLInputElement || key.target instanceof HTMLSelectElement) return;
      if (key.key === "ArrowRight") show(replay.step + 1);
      if (key.key === "ArrowLeft") show(replay.step - 1);
    });
    phone.addEventListener("change", () => show(replay.step)); // some boards are drawn differently on a phone
    const asked = Number(query.get("step"));
    document.body.dataset.ready = "true";
    await show(Number.isInteger(asked) && asked > 0 ? asked : 0);
  } catch (error) {
    showProblem(error);
  }
}

start();
