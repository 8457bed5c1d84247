// The lobby: the rulesets, a form to create a game, the games of this browser, waiting games, join by invite.
import { get, post, Problem, tokens } from "./api.js";
import { mountKeyPanel } from "./key_panel.js";
import { keepCreated, seatLinkItems, shareField, tableLink } from "./seat_links.js";
import { $, clear, el, show, showProblem } from "./dom.js";
import { drawOptions, readOptions } from "./options.js";
import { statusWords } from "./words.js";

const lobby = { rulesets: [], details: new Map(), labels: new Map() };


async function details(rulesetId) {
  if (!lobby.details.has(rulesetId)) lobby.details.set(rulesetId, await get(`/v1/rulesets/${encodeURIComponent(rulesetId)}`));
  return lobby.details.get(rulesetId);
}

/** The ruleset's labels (GET /v1/rulesets/{id}/labels): the bots' names and how each plays; null unread. */
async function readLabels(rulesetId) {
  if (!lobby.labels.has(rulesetId)) {
    lobby.labels.set(rulesetId, await get(`/v1/rulesets/${encodeURIComponent(rulesetId)}/labels`).catch(() => null));
  }
  return lobby.labels.get(rulesetId);
}

/** A bot as the seat form offers it: its name ("Search bot, level 3"), and how it plays as the option's title. */
function botChoice(rulesetId, bot) {
  const terms = (lobby.labels.get(rulesetId) || {}).terms || {};
  return { text: (terms.bots || {})[bot] ?? `bot: ${bot}`, title: (terms.bot_about || {})[bot] ?? "" };
}

function drawRulesets() {
  const list = clear($("rulesets"));
  for (const ruleset of lobby.rulesets) {
    // Where the service serves the rules doc (a link under /v1), link it; else name the file.
    const served = ruleset.links && typeof ruleset.links.rules_doc === "string" && ruleset.links.rules_doc.startsWith("/v1/");
    list.append(el("li", { dataset: { ruleset: ruleset.id } }, el("strong", {}, ruleset.title),
      ` · ${ruleset.min_players}–${ruleset.max_players} players · bots: ${ruleset.bots.join(", ")} · `,
      served ? el("a", { href: ruleset.links.rules_doc }, "rules as implemented")
        : el("span", { className: "muted" }, `rules as implemented: ${ruleset.rules_doc}`),
      " · ", el("a", { href: `/leaderboard/${encodeURIComponent(ruleset.id)}`, className: "leaderboard-link" },
        "leaderboard")));
  }
  const select = clear($("create-ruleset"));
  for (const ruleset of lobby.rulesets) select.append(el("option", { value: ruleset.id }, ruleset.title));
}

function current() {
  return lobby.rulesets.find((ruleset) => ruleset.id === $("create-ruleset").value);
}

function seatRow(index, ruleset) {
  const kind = el("select", { className: "seat-kind", name: `seat-${index}-kind` },
    el("option", { value: "person" }, "a person"),
    ruleset.bots.map((bot) => el("option", { value: `bot:${bot}`, title: botChoice(ruleset.id, bot).title },
      botChoice(ruleset.id, bot).text)),
    el("option", { value: "open" }, "an open seat (joins by invite)"));
  const name = el("input", { className: "seat-name", name: `seat-${index}-name`, maxLength: 64,
    value: `Player ${index + 1}` }); // never "You": the other players read every name
  kind.addEventListener("change", () => {
    name.disabled = kind.value === "open";
    if (kind.value.startsWith("bot:") && /^Player \d+$/.test(name.value)) name.value = `Bot ${index + 1}`;
  });
  if (index > 0 && ruleset.bots.length) {
    kind.value = `bot:${ruleset.bots[0]}`;
    name.value = `Bot ${index + 1}`;
  }
  return el("div", { className: "seat-row", dataset: { seat: index } }, el("span", {}, `Seat ${index + 1}`), kind, name);
}

function drawSeatRows(count) {
  const ruleset = current();
  const fieldset = $("create-seats");
  for (const row of [...fieldset.querySelectorAll(".seat-row")]) row.remove();
  for (let index = 0; index < count; index += 1) fieldset.append(seatRow(index, ruleset));
}

async function chooseRuleset() {
  const ruleset = current();
  drawSeatRows(ruleset.min_players);
  await readLabels(ruleset.id);
  // The rows are drawn at once (a choice made meanwhile stays); their bots are named once the labels are read.
  for (const option of $("create-seats").querySelectorAll('.seat-kind option[value^="bot:"]')) {
    Object.assign(option, { textContent: botChoice(ruleset.id, option.value.slice(4)).text,
      title: botChoice(ruleset.id, option.value.slice(4)).title });
  }
  drawOptions($("create-options"), (await details(ruleset.id)).options_schema);
}

/** The seats of the form; in a rated game each names its player: a person by name, a bot as bot:<bot>#<seat>. */
function seatsFromForm(rated) {
  return [...$("create-seats").querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    const name = row.querySelector(".seat-name").value.trim();
    const number = Number(row.dataset.seat) + 1;
    if (kind === "open") return { open: true };
    if (kind.startsWith("bot:")) {
      const bot = kind.slice(4);
      return { name: name || `Bot ${number}`, bot, ...(rated ? { player: `bot:${bot}#${number}` } : {}) };
    }
    return rated ? { name, player: name } : { name };
  });
}

/** A rated game refuses hints and spectators' win chances: checking one side clears the other. */
function keepSettingsExclusive(changed) {
  const helps = ["create-hints", "create-spectator-chances"];
  if (changed.target.id === "create-rated" && changed.target.checked) for (const id of helps) $(id).checked = false;
  if (helps.includes(changed.target.id) && changed.target.checked) $("create-rated").checked = false;
}

function rulesetTitle(rulesetId) {
  const ruleset = lobby.rulesets.find((known) => known.id === rulesetId);
  return ruleset ? ruleset.title : rulesetId || "A game";
}

/** A game as a person reads it: the game's title and its seats' names (its id only in small print). */
function readableName(gameId, game) {
  const title = rulesetTitle(game.ruleset);
  const names = game.names || Object.values(game.seats || {}).map((entry) => entry.name).filter(Boolean);
  return [el("strong", { className: "game-name" }, names.length ? `${title}: ${names.join(", ")}` : title), " ",
    el("code", { className: "muted game-id" }, gameId)];
}

/**
 * Shows the links of a game created in this browser, from what this browser keeps of it (`tokens`):
 * a play link per seat it holds a token for, the link to send that seat's player, the invites.
 */
function drawLinks(gameId) {
  const game = tokens.game(gameId);
  if (!game) return;
  show($("created-panel"));
  $("created-id").textContent = gameId;
  clear($("created-seats")).append(...seatLinkItems(gameId));
  const invites = clear($("created-invites"));
  const inviteLink = (secret) => `${location.origin}/#join=${encodeURIComponent(gameId)}&invite=${encodeURIComponent(secret)}`;
  for (const invite of game.invites || []) {
    invites.append(el("li", {}, `Invite for seat ${invite.seat}: `,
      ...shareField(inviteLink(invite.invite))));
  }
  if (game.invite) {
    invites.append(el("li", {}, "Invite to join mid-game: ",
      ...shareField(inviteLink(game.invite))));
  }
  $("created-spectate").href = tableLink(gameId, null);
  // Seen at once, wherever the page was scrolled: the links are what the creator needs next.
  $("created-panel").scrollIntoView({ block: "start", behavior: "instant" });
  const first = $("created-seats").querySelector("a.play-link");
  if (first) first.focus({ preventScroll: true });
  document.body.dataset.shown = gameId;
}

async function create(submitted) {
  submitted.preventDefault();
  showProblem(null);
  try {
    const rated = $("create-rated").checked;
    const body = { ruleset: current().id, seats: seatsFromForm(rated), options: readOptions($("create-options")) };
    if (rated) body.rated = true;
    if ($("create-hints").checked) body.hints = true;
    if ($("create-spectator-chances").checked) body.win_chances = "spectators";
    const timeout = $("create-timeout").value.trim();
    if (timeout) body.decision_timeout = Number(timeout);
    const seed = $("create-seed").value.trim();
    if (seed) body.seed = Number(seed);
    if ($("create-listed").checked) body.listed = true;
    const game = await post("/v1/games", body);
    keepCreated(game);
    drawMine();
    drawLinks(game.id);
  } catch (error) {
    showProblem(error);
  }
}

/** How many games of this browser the lobby lists (and reads, one request each, to say which wait for you). */
const MINE_SHOWN = 20;
/** Reads in flight at once while marking them: a few, so a long list never bursts the key's rate limit. */
const MINE_READS_AT_ONCE = 4;
/**
 * The marks are read again this often, so "your turn" comes and goes while the lobby stays open: twenty
 * running games cost at most 120 reads a minute, a fifth of what a publishable key allows one address
 * (finished and gone games are not read again). The games' streams are not worth it here: a browser holds
 * six connections to a host over HTTP/1.1, and twenty streams (each reopened as it times out, against the
 * publishable key's 30 stream openings a minute) would starve the page's other requests.
 */
const MARKS_EVERY_MS = 10000;
/** Statuses that never change again: their games are read once. */
const SETTLED = new Set(["finished", "aborted", "gone"]);

let marking = { round: 0, timer: null };

/**
 * Marks each listed game with its status and, where a seat this browser holds is to decide, "your turn"
 * (one `GET /v1/games/{id}` per listed game, at most MINE_SHOWN, MINE_READS_AT_ONCE at a time), and again
 * every MARKS_EVERY_MS for the games that may still change, until the list is drawn again.
 */
async function markTurns(listed) {
  const round = marking.round;
  const queue = [...listed];
  const mark = async ([gameId, stored]) => {
    const item = $("mine").querySelector(`li[data-game="${CSS.escape(gameId)}"]`);
    if (!item || SETTLED.has(item.dataset.status)) return;
    try {
      const game = await get(`/v1/games/${encodeURIComponent(gameId)}`);
      const mine = Object.keys(stored.seats || {}).map(Number);
      const yours = game.status === "active" && (game.waiting_for || []).some((seat) => mine.includes(seat));
      item.dataset.status = game.status;
      item.dataset.yourTurn = String(yours);
      const note = item.querySelector(".game-status");
      note.textContent = statusWords(game.status);
      if (yours) note.replaceChildren(el("strong", { className: "your-turn" }, "▶ your turn"));
    } catch (error) {
      if (error instanceof Problem && error.status === 404) {
        // expired or forgotten by the service: never read again, the links stay
        Object.assign(item.dataset, { status: "gone", yourTurn: "false" });
        item.querySelector(".game-status").textContent = "";
      } else if (!item.dataset.status) item.dataset.status = "unknown"; // not answered now: the last marks stay
    }
  };
  const worker = async () => {
    while (queue.length) await mark(queue.shift());
  };
  await Promise.all(Array.from({ length: MINE_READS_AT_ONCE }, worker));
  if (round !== marking.round) return; // the list was drawn again meanwhile: its own marking goes on
  const waitingForYou = $("mine").querySelectorAll('li[data-your-turn="true"]').length;
  $("mine-turns").textContent = waitingForYou ? ` · ${waitingForYou} wait${waitingForYou === 1 ? "s" : ""} for you` : "";
  document.title = waitingForYou ? `▶ Your turn (${waitingForYou}) · ${LOBBY_TITLE}` : LOBBY_TITLE;
  document.body.dataset.turnsMarked = "true";
  const changing = [...$("mine").querySelectorAll("li[data-game]")].some((item) => !SETTLED.has(item.dataset.status));
  if (changing) marking.timer = setTimeout(() => markTurns(listed), MARKS_EVERY_MS);
}

const LOBBY_TITLE = document.title;

function drawMine() {
  const list = clear($("mine"));
  delete document.body.dataset.turnsMarked;
  clearTimeout(marking.timer);
  marking = { round: marking.round + 1, timer: null };
  const games = Object.entries(tokens.all()).sort((a, b) => String(b[1].created).localeCompare(String(a[1].created)));
  for (const [gameId, game] of games.slice(0, MINE_SHOWN)) {
    list.append(el("li", { dataset: { game: gameId } }, ...readableName(gameId, game), " ",
      el("span", { className: "game-status muted" }), " ",
      Object.entries(game.seats || {}).map(([seat, entry]) => [el("a", { href: tableLink(gameId, Number(seat)) },
        `play as ${entry.name || `seat ${seat}`}`), " "]),
      el("a", { href: tableLink(gameId, null) }, "watch"), " ",
      el("a", { href: `/replay/${encodeURIComponent(gameId)}` }, "replay"), " ",
      game.creator_token || Object.keys(game.seats || {}).length ? [el("button", {
        type: "button", className: "link show-links", on: { click: () => drawLinks(gameId) } }, "links"), " "] : null,
      el("button", { type: "button", className: "link", on: { click: () => { tokens.forget(gameId); drawMine(); } } }, "forget")));
  }
  if (!games.length) list.append(el("li", { className: "muted" }, "None yet."));
  markTurns(games.slice(0, MINE_SHOWN));
}

async function drawWaiting() {
  const list = clear($("waiting"));
  try {
    const page = await get("/v1/games?status=waiting&limit=20");
    for (const game of page.games || []) {
      const open = game.open_seats ?? (game.seats || []).filter((seat) => seat.open).length;
      list.append(el("li", { dataset: { game: game.id } }, el("code", {}, game.id), ` ${rulesetTitle(game.ruleset)} · `,
        (game.seats || []).map((seat) => (seat.open ? "(open)" : seat.name)).join(", "), ` · ${open} open`,
        game.decision_timeout ? ` · ${game.decision_timeout} s per decision` : "", " ",
        el("button", { type: "button", className: "link", on: { click: () => { $("join-game").value = game.id; $("join-name").focus(); } } }, "join")));
    }
    if (!(page.games || []).length) list.append(el("li", { className: "muted" }, "No game is waiting for players."));
    $("waiting-note").textContent = "";
  } catch (error) {
    $("waiting-note").textContent = error instanceof Problem && (error.status === 405 || error.status === 404)
      ? "This service does not list waiting games yet." : `Could not list waiting games: ${error.message}`;
  }
}

async function join(submitted) {
  submitted.preventDefault();
  showProblem(null);
  const gameId = $("join-game").value.trim();
  try {
    const body = { name: $("join-name").value.trim() };
    const invite = $("join-invite").value.trim();
    if (invite) body.invite = invite; // a listed game may be joined without one
    const joined = await post(`/v1/games/${encodeURIComponent(gameId)}/join`, body);
    tokens.save(gameId, { created: new Date().toISOString(), seats: { [joined.seat]: { name: $("join-name").value.trim(), token: joined.token } } });
    location.assign(tableLink(gameId, joined.seat));
  } catch (error) {
    showProblem(error);
  }
}

async function start() {
  // A lobby link can carry an invite after '#': #join=<game>&invite=<secret>.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("join")) {
    $("join-game").value = fragment.get("join");
    $("join-invite").value = fragment.get("invite") || "";
    history.replaceState(null, "", location.pathname);
  }
  mountKeyPanel();
  $("create-form").addEventListener("submit", create);
  $("create-settings").addEventListener("change", keepSettingsExclusive);
  $("join-form").addEventListener("submit", join);
  $("create-ruleset").addEventListener("change", chooseRuleset);
  $("add-seat").addEventListener("click", () => {
    const rows = $("create-seats").querySelectorAll(".seat-row").length;
    if (rows < current().max_players) $("create-seats").append(seatRow(rows, current()));
  });
  $("remove-seat").addEventListener("click", () => {
    const rows = [...$("create-seats").querySelectorAll(".seat-row")];
    if (rows.length > current().min_players) rows[rows.length - 1].remove();
  });
  try {
    try {
      lobby.rulesets = (await get("/v1/rulesets")).rulesets;
      drawRulesets();
    } finally {
      drawMine(); // after the rulesets: it names each game by its ruleset's title
      drawWaiting();
    }
    await chooseRuleset();
    document.body.dataset.ready = "true";
  } catch (error) {
    showProblem(error);
  }
}

start();
