// Events, actions and loot in words. Names come from the API and are only ever set as text.
import { money, words } from "./dom.js";

const LOOT = {
  painting: "a painting", first_aid: "a first-aid kit", clip: "a clip", godfather_token: "the Godfather token",
};

export function loot(card) {
  if (LOOT[card]) return LOOT[card];
  const match = /^(bill|diamond)_(\d+)$/.exec(card);
  if (match) return `a ${money(Number(match[2]))} ${match[1]}`;
  return words(card);
}

/** A context names seats, spaces and other parties (e.g. Whipca$h's Pros): {names, who(x), space(i)}. */
export function makeContext(seats, space = (i) => `space ${i}`, others = {}, currency = "$") {
  const names = seats.map((seat) => seat.name);
  const who = (seat) => {
    if (typeof seat === "number") return names[seat] ?? `seat ${seat}`;
    if (seat === null || seat === undefined) return "nobody";
    return Object.hasOwn(others, seat) ? others[seat] : words(seat);
  };
  const amount = (value) => (typeof value === "number" && currency !== "$"
    ? `${value < 0 ? "-" : ""}${currency}${Math.abs(value).toLocaleString("en-US")}` : money(value));
  return { names, who, space, money: amount };
}

const list = (items, ctx) => (items.length ? items.map(ctx.who).join(", ") : "nobody");

const EVENTS = {
  game_created: (e, c) => `The game is set for ${e.players} players.`,
  game_over: (e, c) => `Game over (${words(e.reason)})${e.winners ? `: ${list(e.winners, c)} won` : ""}.`,
  game_won: (e, c) => `${list(e.winners, c)} won (${words(e.reason)}).`,
  timed_out: (e, c) => `${c.who(e.seat)} ran out of time: the default was played.`,
  turn: (e, c) => `${c.who(e.seat)}'s turn.`,
  rolled: (e, c) => `${c.who(e.seat)} rolled ${e.dice.join(" + ")}${e.doubles ? " (doubles)" : ""}.`,
  moved: (e, c) => `${c.who(e.seat)} moved to ${c.space(e.to)}.`,
  landed: (e, c) => `${c.who(e.seat)} landed on ${e.name}.`,
  spun: (e, c) => `${c.who(e.seat)} spun ${e.value}.`,
  opening_spin: (e, c) => `${c.who(e.seat)} spun ${e.value} for the first turn.`,
  first_player: (e, c) => `${c.who(e.seat)} goes first.`,
  bought: (e, c) => `${c.who(e.seat)} bought ${c.space(e.space)} for ${c.money(e.price)}.`,
  paid_rent: (e, c) => `${c.who(e.seat)} paid ${c.money(e.amount)} rent to ${c.who(e.owner)}.`,
  paid_bank: (e, c) => `${c.who(e.seat)} paid the bank ${c.money(e.amount)}.`,
  collected: (e, c) => `${c.who(e.seat)} collected ${c.money(e.amount)}.`,
  paid: (e, c) => `${c.who(e.from ?? e.seat)} paid ${c.money(e.amount)} to ${c.who(e.to)}.`,
  sent_to_prison: (e, c) => `${c.who(e.seat)} went to prison.`,
  left_prison: (e, c) => `${c.who(e.seat)} left prison (${words(e.how)}).`,
  chance: (e, c) => `${c.who(e.seat)} drew a Chance card (${words(e.kind)}).`,
  // Cash 'n Guns
  round_started: (e, c) => `Round ${e.round}: ${c.who(e.godfather)} is the Godfather.`,
  round_ended: (e, c) => `Round ${e.round} is over.`,
  bullet_card: (e, c) => `${c.who(e.seat)} loaded a ${e.card}.`,
  bullet_chosen: (e, c) => `${c.who(e.seat)} loaded a card.`,
  aim_secret: (e, c) => `${c.who(e.seat)} aims at ${c.who(e.target)}.`,
  aimed: (e, c) => `${c.who(e.seat)} took aim.`,
  aims_revealed: (e, c) => `Guns out: ${e.targets.map((t, s) => `${c.who(s)} → ${c.who(t)}`).join(", ")}.`,
  privilege_used: (e, c) => `The Godfather ${c.who(e.godfather)} made ${c.who(e.seat)} aim elsewhere.`,
  privilege_passed: (e, c) => `The Godfather ${c.who(e.godfather)} let it be.`,
  retargeted: (e, c) => `${c.who(e.seat)} now aims at ${c.who(e.to)}.`,
  courage_secret: (e, c) => `${c.who(e.seat)} decided to ${e.stand ? "stand" : "lie down"}.`,
  courage_decided: (e, c) => `${c.who(e.seat)} made up their mind.`,
  courage_revealed: (e, c) => `Standing: ${list(e.standing, c)}; lying down: ${list(e.lying_down, c)}.`,
  bullets_revealed: (e, c) => `Cards shown: ${e.cards.map((card, s) => `${c.who(s)} ${card ?? "–"}`).join(", ")}.`,
  shot: (e, c) => `${c.who(e.shooter)} shot at ${c.who(e.target)}${e.wounded ? " and hit" : ""}.`,
  wounded: (e, c) => `${c.who(e.seat)} is wounded (${e.wounds} in all).`,
  killed: (e, c) => `${c.who(e.seat)} is out of the game.`,
  loot_taken: (e, c) => `${c.who(e.seat)} took ${loot(e.card)}.`,
  godfather_token_taken: (e, c) => `${c.who(e.seat)} took the Godfather token.`,
  loot_lost: (e) => `Nobody took ${e.cards.map(loot).join(", ")}.`,
  healed: (e, c) => `${c.who(e.seat)} healed ${e.wounds_healed} wound(s).`,
  reloaded: (e, c) => `${c.who(e.seat)} reloaded.`,
  clip_discard_secret: (e, c) => `${c.who(e.seat)} discarded a ${e.card}.`,
  clip_discarded: (e, c) => `${c.who(e.seat)} discarded a card.`,
  // Hitchiker
  hometown_picked: (e, c) => `${c.who(e.seat)} picked ${e.name} as hometown.`,
  game_started: (e, c) => `${c.who(e.first)} starts.`,
  bad_ride: (e, c) => `Bad ride for ${c.who(e.seat)}: ${e.text}`,
  died: (e, c) => `${c.who(e.seat)} died (${words(e.cause)}).`,
  bet_placed: (e, c) => `${c.who(e.seat)} bet ${c.money(e.amount)}.`,
  casino_opened: (e, c) => `The casino opens; ${c.who(e.dealer)} deals.`,
  casino_closed: () => "The casino closes.",
  casino_round_dealt: (e, c) => `Casino round ${e.round}: ${e.hands.map((h) => `${c.who(h.seat)} ${h.cards.join(" ")}`).join(", ")}; the house shows ${e.house.join(" ")}.`,
  card_dealt: (e, c) => `${c.who(e.seat)} drew ${e.card}.`,
  house_played: (e) => `The house drew to ${e.cards.join(" ")} (${e.total}).`,
  hand_settled: (e, c) => `${c.who(e.seat)}'s hand: ${words(e.outcome)}, paid ${c.money(e.paid)}.`,
  hand_bust: (e, c) => `${c.who(e.seat)} went bust and lost ${c.money(e.lost)}.`,
  blackjack: (e, c) => `Blackjack for ${c.who(e.seat)}: won ${c.money(e.won)}.`,
  deposited: (e, c) => `${c.who(e.seat)} banked ${c.money(e.amount)} (savings ${c.money(e.savings)}).`,
  moving: (e, c) => `${c.who(e.seat)} hitches ${e.steps} cities.`,
  turn_order_rolled: () => "Turn order rolled.",
  turn_order: () => "Turn order rolled.",
  rolled_for_cash: (e, c) => `${c.who(e.seat)} rolled ${e.dice.join(" + ")} for cash.`,
  stayed_in_pit: (e, c) => `${c.who(e.seat)} stays in ${c.who(e.pit)}'s pit.`,
  escaped_pit: (e, c) => `${c.who(e.seat)} got out of ${c.who(e.pit)}'s pit.`,
  entered_freeway: (e, c) => `${c.who(e.seat)} took the Blind Justice Freeway.`,
  sent_to_pit: (e, c) => `${c.who(e.by)} sent ${c.who(e.seat)} to ${c.who(e.pit)}'s pit.`,
  pro_bankrupted: (e, c) => `${c.who(e.pro)} went bankrupt (${c.who(e.by)}).`,
  // Whipca$h
  in_pit: (e, c) => `${c.who(e.seat)} is in ${c.who(e.pit)}'s pit.`,
  whipcash: (e, c) => `Whipca$h! ${c.who(e.seat)} hit ${list(e.cars, c)}.`,
  player_bankrupted: (e, c) => `${c.who(e.seat)} went bankrupt.`,
};

const SEAT_KEYS = new Set(["seat", "to", "from", "by", "owner", "target", "shooter", "godfather", "heir",
  "responsible", "roller", "first"]);
const MONEY_KEYS = new Set(["amount", "price", "cash", "savings", "paid", "owed", "lost", "won", "cost", "stake",
  "cancelled"]);

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

export function describe(event, ctx) {
  const template = EVENTS[event.type];
  try {
    return template ? template(event, ctx) : plain(event, ctx);
  } catch {
    return plain(event, ctx);
  }
}

/** The label of a button that sends this action. */
export function actionLabel(action, ctx) {
  const { type } = action;
  switch (type) {
    case "choose_bullet": return `Load a ${action.card}`;
    case "clip_discard": return `Discard a ${action.card}`;
    case "aim": return action.target === null ? "Don't aim" : `Aim at ${ctx.who(action.target)}`;
    case "retarget": return `Aim at ${ctx.who(action.target)} instead`;
    case "privilege": return action.target === null ? "Let everyone be" : `Make ${ctx.who(action.target)} aim elsewhere`;
    case "courage": return action.stand ? "Stand" : "Lie down";
    case "take_loot": return `Take ${loot(action.card)}`;
    case "take_godfather_token": return "Take the Godfather token";
    case "roll": return action.dice ? `Roll ${action.dice} ${action.dice === 1 ? "die" : "dice"}` : "Roll";
    case "choose_property": return `Take ${ctx.space(action.space)}`;
    case "pick_hometown": case "go_home": return `${words(type)}: ${action.city}`;
    case "anti_fender_bender": return action.play ? "Play the Anti-Fender-Bender" : "Keep the Anti-Fender-Bender";
    case "send_to_pit": return `Send them to ${ctx.who(action.pit)}'s pit`;
    default: {
      const rest = Object.entries(action).filter(([key]) => key !== "type")
        .map(([key, value]) => `${words(key)} ${typeof value === "object" ? JSON.stringify(value) : value}`);
      return [words(type).replace(/^./, (first) => first.toUpperCase()), ...rest].join(" ");
    }
  }
}
