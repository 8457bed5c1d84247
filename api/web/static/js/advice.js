// What a table may be told beyond its view: a seat's hint (GET /hint, shown on its own buttons) and the live win
// chances (GET /win-chances, a small chart). A seat asks for its own chances only where hints are on, and each
// version it asks counts in its public hint count like a hint, so a seat turns the chart on itself; a spectator
// sees it at once where the creator allowed it. Chances are asked once per version at most.
import { get, Problem } from "./api.js";
import { chanceLines, redrawOnResize, widthFor } from "./chart.js";
import { $, clear, el, show, showProblem } from "./dom.js";

/** An action as one comparable string (its keys sorted), for finding the hinted one among the buttons. */
const canonical = (action) => JSON.stringify(Object.keys(action).sort().map((key) => [key, action[key]]));

const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * The hint button of a seat of a game with hints on: a click asks GET /hint (waiting out its 202s) and marks the
 * suggested action on the seat's buttons (a ranged action: its form's inputs filled, its button marked).
 * `update(game, decisions, container)` after every redraw of the controls keeps the mark for the same version.
 */
export function mountHints(panel, { gameId, seat, token }) {
  const state = { hint: null, asking: false, game: null, container: null };
  const button = el("button", { type: "button", id: "ask-hint", className: "link" }, "Hint: what would a bot play?");
  const note = el("span", { id: "hint-note", className: "muted" });
  panel.append(el("p", { className: "hint-line", hidden: true }, button, " ", note));

  async function ask() {
    if (state.asking || !state.game) return;
    state.asking = true;
    button.disabled = true;
    note.textContent = "thinking…";
    const version = state.game.version;
    try {
      for (;;) {
        const hint = await get(`/v1/games/${encodeURIComponent(gameId)}/hint?wait=5&seat=${seat}`, { token });
        if (hint.status === "ready") {
          state.hint = hint;
          break;
        }
        if (!state.game || state.game.version !== version) break; // the game moved on: this hint is moot
        await pause(1);
      }
    } catch (error) {
      if (!(error instanceof Problem && error.status === 409)) showProblem(error);
    } finally {
      state.asking = false;
    }
    mark();
  }

  /** Marks the hinted action on the buttons drawn for the hint's version (none once the game moved on). */
  function mark() {
    const { hint, game, container } = state;
    const current = Boolean(hint && game && hint.version === game.version);
    button.disabled = state.asking;
    if (!state.asking) note.textContent = current ? "the suggested move is marked" : "";
    if (!container) return;
    for (const marked of container.querySelectorAll(".hinted")) marked.classList.remove("hinted");
    if (!current) return;
    const wanted = canonical(hint.action);
    for (const choice of container.querySelectorAll("button.action[data-action]")) {
      if (canonical(JSON.parse(choice.dataset.action)) === wanted) choice.classList.add("hinted");
    }
    for (const form of container.querySelectorAll("form.ranged")) {
      if (form.dataset.type !== hint.action.type) continue;
      const inputs = [...form.querySelectorAll("input[data-param]")];
      for (const input of inputs) if (input.dataset.param in hint.action) input.value = String(hint.action[input.dataset.param]);
      form.querySelector("button.action").classList.add("hinted");
    }
    document.body.dataset.hintVersion = String(hint.version);
  }

  button.addEventListener("click", ask);
  return {
    update(game, decisions, container) {
      state.game = game;
      state.container = container;
      show(panel.querySelector(".hint-line"), game.status === "active" && decisions.length > 0);
      mark();
    },
  };
}

/** Who may see the live game's chances from this page: a seat where hints are on, a spectator where allowed. */
export function mayAskChances(game, seat) {
  if (game.status !== "active") return false;
  return seat === null ? game.win_chances === "spectators" : Boolean(game.hints);
}

/**
 * The live win-chances chart (#win-chances-panel): every seat's chance at each version this page saw, asked once
 * per version at most (a version missed while an ask was out is skipped, not asked late). A seat's chart starts
 * when it asks for it (each version it sees counts as a hint); a spectator's at once.
 */
export function mountLiveChances(panel, { gameId, seat, token, names }) {
  const state = { game: null, on: seat === null, asked: -1, asking: false, rows: [], versions: [], until: 0 };
  const chart = el("div", { id: "win-chances", className: "chart" });
  const words = el("p", { id: "win-chances-words", className: "muted" });
  const start = el("button", { type: "button", id: "show-chances", className: "link" },
    "Show my win chances (each move you watch them counts as a hint)");
  start.addEventListener("click", () => {
    state.on = true;
    show(start, false);
    ask();
  });
  panel.append(el("h2", {}, "Win chances"), start, chart, words);
  show(start, !state.on);

  function draw() {
    if (!state.rows.length) return;
    clear(chart).append(chanceLines(state.rows.length > 1 ? state.rows : [state.rows[0], state.rows[0]],
      { width: Math.min(360, widthFor(chart)), tickOf: (index) => `move ${state.versions[Math.min(index, state.versions.length - 1)]}` }));
    const latest = state.rows[state.rows.length - 1];
    words.textContent = latest.map((chance, index) => `${names()(index)} ${Math.round(chance * 100)}%`).join(" · ");
    document.body.dataset.chancesVersion = String(state.versions[state.versions.length - 1]);
  }

  async function ask() {
    const { game } = state;
    if (!state.on || state.asking || !game || !mayAskChances(game, seat) || game.version <= state.asked) return;
    if (Date.now() < state.until) return;
    state.asking = true;
    state.asked = game.version;
    try {
      const answer = await get(`/v1/games/${encodeURIComponent(gameId)}/win-chances`, { token: seat === null ? null : token });
      if (answer.basis !== "result" && answer.version > (state.versions.at(-1) ?? -1)) {
        state.rows.push(answer.chances);
        state.versions.push(answer.version);
        draw();
      }
    } catch (error) {
      // 429: a spectator's asks past the limit; wait as told and skip the versions meanwhile.
      if (error instanceof Problem && error.status === 429) state.until = Date.now() + 1000 * Number(error.body.retry_after || 10);
      else if (!(error instanceof Problem && error.status === 409)) showProblem(error);
    } finally {
      state.asking = false;
    }
    if (state.game && state.game.version > state.asked) ask(); // the game moved while asking: its latest version
  }

  redrawOnResize(draw);
  return {
    update(game) {
      state.game = game;
      show(panel, mayAskChances(game, seat) || state.rows.length > 0);
      ask();
    },
  };
}
