// The public HTTP API, as any app calls it, and the tokens this browser holds.

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

const KEY_STORE = "rulehouse.apiKey";

/**
 * The app key the pages send as X-Api-Key (needed where the service requires app keys): one
 * entered in the lobby (kept in this browser), else the service's own browser-safe key, else none.
 */
export function apiKey() {
  const meta = document.querySelector('meta[name="rulehouse-api-key"]');
  return localStorage.getItem(KEY_STORE) || (meta && meta.content) || null;
}

export function setApiKey(key) {
  if (key) localStorage.setItem(KEY_STORE, key);
  else localStorage.removeItem(KEY_STORE);
}

function withCredentials(headers, token) {
  const key = apiKey();
  if (key) headers["X-Api-Key"] = key;
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** One JSON request. `token` goes in the Authorization header, never in the address. */
export async function request(method, path, { token, body, ifMatch, headers = {} } = {}) {
  const sent = withCredentials({ ...headers, Accept: "application/json" }, token);
  if (ifMatch !== undefined) sent["If-Match"] = `"${ifMatch}"`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new Problem(response.status, parsed);
  return parsed;
}

export const get = (path, options) => request("GET", path, options);
export const post = (path, body, options = {}) => request("POST", path, { ...options, body });

const STORE_KEY = "rulehouse.games";

/** Tokens of the games created or joined in this browser (localStorage; never sent anywhere but the API). */
export const tokens = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(STORE_KEY)) || {};
    } catch {
      return {};
    }
  },
  game(gameId) {
    return this.all()[gameId] || null;
  },
  save(gameId, entry) {
    const games = this.all();
    const old = games[gameId] || { seats: {} };
    games[gameId] = { ...old, ...entry, seats: { ...old.seats, ...(entry.seats || {}) } };
    localStorage.setItem(STORE_KEY, JSON.stringify(games));
  },
  seatToken(gameId, seat) {
    const game = this.game(gameId);
    return (game && game.seats[seat] && game.seats[seat].token) || null;
  },
  forget(gameId) {
    const games = this.all();
    delete games[gameId];
    localStorage.setItem(STORE_KEY, JSON.stringify(games));
  },
};

/** Every visible event of a game, oldest first, page by page. */
export async function allEvents(gameId, token) {
  const events = [];
  let after = "0";
  for (;;) {
    const page = await get(`/v1/games/${encodeURIComponent(gameId)}/events?after=${after}&limit=1000`, { token });
    events.push(...page.events);
    if (page.next === after) break;
    after = page.next;
  }
  return events;
}

/**
 * Follows one of the API's NDJSON streams (a game's, or its chat's) and reconnects after a drop or the
 * time limit, resuming after the last cursor it got, so no line is missed or repeated. Every line but
 * keep-alives and the time limit's end goes to onLine(line); the stream's other end to onEnd(line).
 * Handlers: onLine, onEnd, onLive(bool), onError(problem: a 4xx, after which it stops).
 */
export function followStream(path, token, handlers) {
  let after = "0";
  let stopped = false;
  let failures = 0;
  const controller = new AbortController();

  async function connect() {
    const headers = withCredentials({ Accept: "application/x-ndjson" }, token);
    const response = await fetch(`${path}?after=${encodeURIComponent(after)}`,
      { headers, signal: controller.signal, cache: "no-store" });
    if (!response.ok) {
      let body = null;
      try { body = await response.json(); } catch { /* not JSON */ }
      throw new Problem(response.status, body);
    }
    handlers.onLive?.(true);
    failures = 0;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return "dropped";
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!text) continue;
        const line = JSON.parse(text);
        if (line.kind === "keepalive") continue;
        if (line.kind === "end") {
          if (line.reason === "time_limit") return "again";
          handlers.onEnd?.(line);
          return "ended";
        }
        // A game stream's first line names the latest cursor while the events before it are still to come.
        if (line.kind !== "state" && typeof line.cursor === "string") after = line.cursor;
        handlers.onLine?.(line);
      }
    }
  }

  (async () => {
    while (!stopped) {
      let outcome;
      try {
        outcome = await connect();
      } catch (error) {
        if (stopped) return;
        if (error instanceof Problem && error.status >= 400 && error.status < 500) {
          handlers.onError?.(error);
          return;
        }
        outcome = "dropped";
      }
      if (outcome === "ended") return;
      handlers.onLive?.(false);
      if (outcome === "dropped") {
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(10000, 500 * 2 ** failures)));
      }
    }
  })();
  return { stop() { stopped = true; controller.abort(); } };
}

/**
 * Follows GET /v1/games/{id}/stream (see followStream).
 * Handlers: onState(line), onEvent(line), onEnd(line), onLive(bool), onError(problem).
 */
export function follow(gameId, token, handlers) {
  return followStream(`/v1/games/${encodeURIComponent(gameId)}/stream`, token, {
    ...handlers,
    onLine: (line) => {
      if (line.kind === "state") handlers.onState?.(line);
      else if (line.kind === "event") handlers.onEvent?.(line);
    },
  });
}
