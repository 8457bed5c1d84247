// Events, actions and cards in words: a small renderer of the templates the service serves per ruleset
// (GET /v1/rulesets/{id}/labels; the grammar is in docs/http-api.md, "Labels"). The words themselves
// live with the rulesets (engine/games/<game>/data/labels.json), so the pages, the SDK and an agent read
// the same ones. Names come from the API and are only ever set as text.
import { money, words } from "./dom.js";

const STATUS_WORDS = { waiting: "waiting for players", active: "under way", finished: "finished",
  aborted: "stopped before its end" };

/** A game's status in words. */
export function statusWords(status) {
  return STATUS_WORDS[status] ?? words(status);
}

/** Labels with every section, for a page whose labels could not be read (codes then read as words). */
const NO_LABELS = { events: {}, end_reasons: {}, decisions: {}, actions: {}, ranged: {}, parts: {}, terms: {}, seats: {} };

const present = (value) => value !== undefined && value !== null && value !== false && value !== ""
  && !(Array.isArray(value) && value.length === 0);
const joinAnd = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items[0] ?? "");
const number = (value) => (typeof value === "number" ? value.toLocaleString("en-US") : String(value));

/** A template filled from `values` (an event, an action, a result's details): see docs/http-api.md, "Labels". */
export function render(template, values, ctx) {
  if (template && typeof template === "object") {
    const key = String(values[template.case]);
    return render(Object.hasOwn(template.values || {}, key) ? template.values[key] : template.else, values, ctx);
  }
  if (typeof template !== "string") throw new Error("no template");
  // One pass: text a hole puts in (a player's name) is never read as a template.
  return template.replace(/\[([^\]]*)\]|\{([^}]*)\}/g, (_, optional, hole) => (hole !== undefined
    ? fill(hole, values, ctx)
    : optionalPart(optional, values, ctx)));
}

/** `[text]` shows when every field it names is there; `[?cond text]` when `cond` holds (`a`, `!a`, `a>b`, `a>0`). */
function optionalPart(inner, values, ctx) {
  let text = inner;
  let shown;
  if (inner.startsWith("?")) {
    const space = inner.indexOf(" ");
    const cond = inner.slice(1, space);
    text = inner.slice(space + 1);
    const [left, right] = cond.split(">");
    const operand = (name) => (/^-?\d+$/.test(name) ? Number(name) : values[name]);
    if (right !== undefined) shown = operand(left) > operand(right);
    else shown = cond.startsWith("!") ? !present(values[cond.slice(1)]) : present(values[cond]);
  } else {
    shown = [...inner.matchAll(/\{([^|}]*)/g)].every(([, field]) => present(values[field]));
  }
  return shown ? text.replace(/\{([^}]*)\}/g, (_, hole) => fill(hole, values, ctx)) : "";
}

function fill(hole, values, ctx) {
  const [field, format = "text"] = hole.split(/\|(.*)/s);
  const value = values[field];
  if (value === undefined) throw new Error(`no ${field}`);
  return formatted(value, format, values, ctx);
}

function formatted(value, format, values, ctx) {
  const [name, ...args] = format.split(":");
  const formatter = FORMATS[name];
  if (!formatter) throw new Error(`no formatter ${name}`);
  return formatter(value, args, values, ctx);
}

/** One item, or each item of a list joined ("a, b and c"). */
const each = (one) => (value, args, values, ctx) => (Array.isArray(value)
  ? joinAnd(value.map((item) => one(item, args, values, ctx)))
  : one(value, args, values, ctx));

function termOf(ctx, table, code, values = {}) {
  const found = ((table === "end_reasons" ? ctx.labels.end_reasons : ctx.labels.terms[table]) || {})[String(code)];
  if (found === undefined) throw new Error(`no ${table} term for ${code}`);
  return render(found, values, ctx);
}

function cardName(code, ctx) {
  const rank = String(code).slice(0, -1);
  const suit = String(code).slice(-1);
  return `${termOf(ctx, "card_ranks", rank)} of ${termOf(ctx, "card_suits", suit)} (${termOf(ctx, "card_values", rank)})`;
}

const FORMATS = {
  text: (value) => (Array.isArray(value) ? value.map(number).join(", ") : number(value)),
  seat: each((value, args, values, ctx) => ctx.who(value)),
  seats: (value, args, values, ctx) => (value.length ? joinAnd(value.map(ctx.who)) : ctx.nobody),
  money: each((value, args, values, ctx) => ctx.money(value)),
  space: each((value, args, values, ctx) => ctx.space(value)),
  count: (value, [one, many]) => `${number(value)} ${value === 1 ? one : many}`,
  dice: (value) => value.join(" + "),
  // `term:<table>:as_is` shows a value the table lacks as it is: it is words already (a board's city name)
  term: each((value, [table, missing], values, ctx) => (missing === "as_is" && !Object.hasOwn(ctx.labels.terms[table] || {}, String(value))
    ? String(value) : termOf(ctx, table, value, values))),
  card: (value, args, values, ctx) => (Array.isArray(value) ? value : [value]).map((code) => cardName(code, ctx)).join(", "),
  each: (value, [part], values, ctx) => value.map((item) => render(ctx.labels.parts[part], item, ctx)).join("; "),
  won: (value, args, values, ctx) => (value.length
    ? `${joinAnd(value.map(ctx.who))} ${value.length > 1 ? "share the win" : "wins"}` : "nobody wins"),
  /** A list indexed by seat: "Ann → Bo, Cy → Ann" (`per_seat:<between>:<format of an item>`); nulls left out. */
  per_seat: (value, [between, ...format], values, ctx) => value
    .map((item, seat) => (item === null ? null : `${ctx.who(seat)}${between}${formatted(item, format.join(":"), values, ctx)}`))
    .filter(Boolean).join(", ") || ctx.nobody,
};

/**
 * A context names seats, spaces and other parties (e.g. Whipca$h's Pros) with the ruleset's `labels`:
 * {names, who(x), space(i), money(x), term(table, code), card(code), labels}. A seat without a name reads
 * as "Seat 2" or "Seat 2 · Heuristic bot" (counted from 1), never as a bot's code.
 */
export function makeContext(seats, space = (i) => `space ${i}`, others = {}, currency = "$", labels = null) {
  const ctx = { labels: labels || NO_LABELS, space };
  const seatTemplates = ctx.labels.seats;
  const unnamed = (seat, index) => {
    const values = { number: index + 1, bot: seat && seat.bot };
    if (values.bot && seatTemplates.bot_seat) return safely(() => render(seatTemplates.bot_seat, values, ctx), `Seat ${index + 1}`);
    return seatTemplates.seat ? render(seatTemplates.seat, values, ctx) : `Seat ${index + 1}`;
  };
  // The service names a bot seat created without a name "<bot> bot" (api/games/routes.py) and a rated
  // one by its player id ("bot:heuristic#a"): both read as the seat's number and the bot's label.
  const named = (seat) => seat && seat.name && !String(seat.name).startsWith("bot:") && seat.name !== `${seat.bot} bot`;
  const names = seats.map((seat, index) => (named(seat) ? seat.name : unnamed(seat, index)));
  const parties = ctx.labels.terms.parties || {};
  ctx.nobody = seatTemplates.nobody || "nobody";
  ctx.who = (seat) => {
    if (seat === null || seat === undefined) return ctx.nobody;
    if (Object.hasOwn(others, seat)) return others[seat];
    if (Object.hasOwn(parties, String(seat))) return parties[String(seat)];
    if (typeof seat === "number") return names[seat] ?? unnamed(null, seat);
    return words(seat);
  };
  ctx.money = (value) => (typeof value === "number" && currency !== "$"
    ? `${value < 0 ? "-" : ""}${currency}${Math.abs(value).toLocaleString("en-US")}` : money(value));
  ctx.term = (table, code) => safely(() => termOf(ctx, table, code), words(code));
  ctx.card = (code) => safely(() => cardName(code, ctx), String(code));
  /** A part of the labels (`parts.<name>`) filled from `values`; null without one. */
  ctx.part = (name, values) => safely(() => render(ctx.labels.parts[name], values, ctx), null);
  ctx.names = names;
  ctx.pawn = pawnLabels(names);
  return ctx;
}

function safely(make, fallback) {
  try {
    return make();
  } catch {
    return fallback;
  }
}

/** A loot card in words ("a $5,000 diamond"). */
export function loot(card, ctx = makeContext([])) {
  return ctx.term("loot", card);
}

/**
 * A pawn label per seat, different for every seat: the name's initial, and where two names share it,
 * the initial and the name's number ("Bot 2" → "B2") or else the seat's number counted from 1.
 */
export function pawnLabels(names) {
  const initial = (name) => String(name ?? "?").trim().slice(0, 1).toUpperCase() || "?";
  const counts = new Map();
  for (const name of names) counts.set(initial(name), (counts.get(initial(name)) || 0) + 1);
  const labels = names.map((name, seat) => {
    if (counts.get(initial(name)) === 1) return initial(name);
    const number = /(\d+)\s*$/.exec(String(name ?? ""));
    return `${initial(name)}${number ? number[1] : seat + 1}`;
  });
  // Still a clash (e.g. "Bo 2" and "Bea" at seat 1): the seat's number decides.
  return (seat) => (labels.filter((label) => label === labels[seat]).length > 1 ? `${initial(names[seat])}·${seat + 1}` : labels[seat] ?? "?");
}

/** A game's end, in words: ``reason`` with the facts of the end event or the result (``details``). */
export function endReason(reason, ctx, facts = {}) {
  return safely(() => render(ctx.labels.end_reasons[reason], facts, ctx), words(reason));
}

const SEAT_KEYS = new Set(["seat", "to", "from", "by", "owner", "target", "shooter", "godfather", "heir",
  "responsible", "roller", "first"]);
const MONEY_KEYS = new Set(["amount", "price", "cash", "savings", "paid", "owed", "lost", "won", "cost", "stake",
  "cancelled"]);

/** An event with no label (a newer service than its labels): its fields in plain terms. */
function plain(event, ctx) {
  const parts = [];
  for (const [key, value] of Object.entries(event)) {
    if (key === "type" || key === "visible_to" || key === "seat") continue;
    let text;
    if (SEAT_KEYS.has(key) && (typeof value === "number" || value === null)) text = ctx.who(value);
    else if (MONEY_KEYS.has(key) && typeof value === "number") text = ctx.money(value);
    else if (Array.isArray(value)) text = value.map((item) => (typeof item === "object" ? JSON.stringify(item) : item)).join(", ");
    else if (value && typeof value === "object") text = JSON.stringify(value);
    else text = String(value);
    parts.push(`${words(key)} ${text}`);
  }
  const subject = typeof event.seat === "number" ? `${ctx.who(event.seat)}: ` : "";
  return `${subject}${words(event.type)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
}

/** The event's own sentence; throws for an event type without a label (or fields its label does not find). */
export function sentence(event, ctx) {
  const template = ctx.labels.events[event.type];
  if (template === undefined) throw new Error(`no words for the event type ${event.type}`);
  return render(template, event, ctx);
}

/** The event in words; an event without a label in plain terms. */
export function describe(event, ctx) {
  return safely(() => sentence(event, ctx), null) ?? plain(event, ctx);
}

const capital = (text) => text.replace(/^./, (first) => first.toUpperCase());

/** The heading of a pending decision. */
export function decisionTitle(kind, ctx = makeContext([])) {
  return ctx.labels.decisions[kind] ?? capital(words(kind));
}

/** The label of a button that sends this action. */
export function actionLabel(action, ctx) {
  const template = ctx.labels.actions[action.type];
  const labelled = template === undefined ? null : safely(() => render(template, action, ctx), null);
  if (labelled !== null) return labelled;
  const rest = Object.entries(action).filter(([key]) => key !== "type")
    .map(([key, value]) => `${words(key)} ${typeof value === "object" ? JSON.stringify(value) : value}`);
  return [capital(words(action.type)), ...rest].join(" ");
}

/** The labels of a ranged action's form: its button, and each parameter's input with its range. */
export function rangedLabels(type, bounds, ctx) {
  const own = ctx.labels.ranged[type] || {};
  const inputs = Object.fromEntries(Object.entries(bounds).map(([name, [low, high]]) => [name,
    `${own[name] ?? capital(words(name))} (${number(low)}–${number(high)})`]));
  return { button: own.button ?? capital(words(type)), inputs };
}
