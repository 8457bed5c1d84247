// The table chat of one game: what the seated players said, live from the chat's own stream (beside the
// game's), a box for a seat to say something, and the creator's switch. Every message is put in as a
// text node (dom.js), never parsed as HTML.
import { followStream, post } from "./api.js";
import { el, show } from "./dom.js";

/** The chat's problem line: the API's detail, or the error's message. */
function problemText(error) {
  const body = error.body || {};
  const fields = (body.errors || []).map((item) => item.detail).join("; ");
  return [body.detail || error.message, fields].filter(Boolean).join(": ");
}

/**
 * Draws the chat into `container` and keeps it live. `seat` and `token`: the seat this page plays (null for
 * a spectator, who only reads); `creatorToken`: set when this browser created the game (it may turn chat
 * off and on). The container's data-chat ("on"/"off") and data-messages (how many are shown) say its state.
 */
export function mountChat(container, { gameId, seat = null, token = null, creatorToken = null }) {
  const path = `/v1/games/${encodeURIComponent(gameId)}/chat`;
  const log = el("ol", { className: "log chat-log", id: "chat-log" });
  const state = el("p", { className: "muted", id: "chat-state" });
  const input = el("input", { type: "text", id: "chat-text", maxLength: 280, autocomplete: "off",
    placeholder: "Say something to the table", "aria-label": "Message" });
  const send = el("button", { type: "submit", id: "chat-send" }, "Send");
  const form = el("form", { className: "chat-form", id: "chat-form" }, input, send);
  const toggle = el("button", { type: "button", className: "link", id: "chat-toggle" });
  const problem = el("p", { className: "chat-problem", id: "chat-problem", role: "alert", hidden: true });
  container.append(el("h2", {}, "Table talk"), log, state, form, problem, el("p", {}, toggle));
  show(form, seat !== null);
  show(toggle, Boolean(creatorToken));
  const shown = new Set();
  let enabled = true;

  function say(error) {
    problem.textContent = error ? problemText(error) : "";
    show(problem, Boolean(error));
  }

  function setEnabled(on) {
    enabled = on;
    container.dataset.chat = on ? "on" : "off";
    state.textContent = on ? "" : "Chat is off at this table.";
    input.disabled = !on;
    send.disabled = !on;
    toggle.textContent = on ? "Turn chat off for everyone" : "Turn chat on";
  }

  function addMessage(message) {
    if (shown.has(message.cursor)) return;
    shown.add(message.cursor);
    const who = message.name || `Seat ${message.seat}`;
    log.append(el("li", { className: "chat-message", dataset: { cursor: message.cursor, seat: String(message.seat) } },
      el("strong", { className: "chat-who" }, who), ": ", el("span", { className: "chat-text" }, message.text)));
    log.scrollTop = log.scrollHeight; // the log scrolls, not the page
    container.dataset.messages = String(shown.size);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !enabled) return;
    send.disabled = true;
    try {
      addMessage(await post(path, { text }, { token }));
      input.value = "";
      say(null);
    } catch (error) {
      say(error);
    } finally {
      send.disabled = !enabled;
    }
  });

  toggle.addEventListener("click", async () => {
    try {
      const answer = await post(`${path}/settings`, { enabled: !enabled }, { token: creatorToken });
      setEnabled(answer.enabled);
      say(null);
    } catch (error) {
      say(error);
    }
  });

  setEnabled(true);
  container.dataset.messages = "0";
  // Chat is public: read it without a token (a seat handed to a bot has none any more).
  return followStream(`${path}/stream`, null, {
    onLine: (line) => {
      if (line.kind === "settings") setEnabled(line.enabled);
      else if (line.kind === "message") addMessage(line);
    },
    onError: (error) => say(error),
  });
}
