// Events, actions and loot in words. Names come from the API and are only ever set as text.
import { money, words } from "./dom.js";

const STATUS_WORDS = { waiting: "waiting for players", active: "under way", finished: "finished",
  aborted: "stopped before its end" };

/** A game's status in words. */
export function statusWords(status) {
  return STATUS_WORDS[status] ?? words(status);
}

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
  return { names, who, space, money: amount, pawn: pawnLabels(names) };
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

const list = (items, ctx) => (items.length ? items.map(ctx.who).join(", ") : "nobody");
const joinAnd = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items[0] ?? "");
const plural = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const units = (count) => plural(count, "unit");
const whyPaid = { rent: "rent", bad_ride: "a Bad Ride card", jail_fine: "the prison fine", chance: "a Chance card",
  welfare: "welfare", sale: "the sale", joined: "the start money", reincarnation: "reincarnation", go: "passing GO" };
const why = (reason) => (reason ? whyPaid[reason] ?? words(reason) : null);

/** A game's end, in words: ``reason`` with the facts of the end event or the result (``details``). */
export function endReason(reason, ctx, facts = {}) {
  const short = facts.seat ?? facts.short_seat;
  const who = typeof short === "number" ? ctx.who(short) : "a player";
  switch (reason) {
    case "cannot_buy": return `${who} landed on a property and could not pay for it`;
    case "cannot_pay_rent": return `${who} could not pay the rent`;
    case "cannot_pay_bank": return `${who} could not pay the bank`;
    case "turn_cap": return "the turn limit was reached";
    case "last_standing": return "only one gangster is left standing";
    case "all_dead": return "every gangster is out";
    case "rounds_played": return "all the rounds are played";
    case "last_player_standing": return "every other player went bankrupt";
    case "savings": return "savings reached the goal";
    case "travelling_cash": return "travelling cash reached the goal";
    case "both": return "savings and travelling cash reached the goal";
    default: return words(reason);
  }
}

const HAND_OUTCOMES = { win: "beat the house", push: "tied the house", lose: "lost to the house" };
const DECLINED = {
  buy_hometown: "did not buy the Hometown", deposit: "banked nothing", sell: "kept the contraband",
  black_market: "stayed out of the black market", deal_choice: "walked away from the deal", go_home: "stayed on the road",
};
const card = (name) => (name === "bang" ? "Bang!" : "Click");

const won = (winners, c) => (winners && winners.length ? `${joinAnd(winners.map(c.who))} ${winners.length > 1 ? "share the win" : "wins"}` : "nobody wins");

const EVENTS = {
  // The service's own events
  game_created: (e) => `The game is set for ${e.players} players.`,
  table_started: (e) => `The table starts with ${e.players} players.`,
  seat_joined: (e, c) => `${e.name ?? c.who(e.seat)} joined the table.`,
  seat_left: (e, c) => `${e.name ?? c.who(e.seat)} left the table.`,
  seat_removed: (e) => `The open seat ${e.seat} was removed.`,
  seat_to_bot: (e, c) => `A bot (${e.bot}) now plays ${c.who(e.seat)}'s seat.`,
  timed_out: (e, c) => `${c.who(e.seat)} ran out of time: the default was played.`,
  game_aborted: (e) => (e.reason === "tournament_cancelled"
    ? "The game was stopped: its tournament was cancelled."
    : "The game was stopped before its end."),
  // Monopoly: Cars 2
  opening_spin: (e, c) => `${c.who(e.seat)} spun ${e.value} to see who goes first.`,
  first_player: (e, c) => `${c.who(e.seat)} goes first.`,
  turn: (e, c) => `${c.who(e.seat)}'s turn.`,
  spun: (e, c) => `${c.who(e.seat)} spun ${e.value}.`,
  moved: (e, c) => `${c.who(e.seat)} moved to ${c.space(e.to)}.`,
  race_again: (e, c) => `${c.who(e.seat)} races Flash McQueen again and plays again.`,
  sent_to_prison: (e, c) => `${c.who(e.seat)} went to prison.`,
  left_prison: (e, c) => `${c.who(e.seat)} left prison (${e.how === "paid_fine" ? "paid the fine" : e.how === "used_card" ? "used a get-out card" : words(e.how)}).`,
  bought: (e, c) => `${c.who(e.seat)} bought ${c.space(e.space)} for ${c.money(e.price)}.`,
  cannot_buy: (e, c) => `${c.who(e.seat)} cannot pay ${c.money(e.price)} for ${c.space(e.space)} (has ${c.money(e.money)}).`,
  chariot: (e, c) => `${c.who(e.seat)} owns the whole ${words(e.colour)} group: its rents double.`,
  paid_rent: (e, c) => `${c.who(e.seat)} paid ${c.money(e.amount)} rent to ${c.who(e.owner)}${e.due > e.amount ? ` (owed ${c.money(e.due)})` : ""}.`,
  paid_bank: (e, c) => `${c.who(e.seat)} paid the bank ${c.money(e.amount)}${e.for ? ` for ${why(e.for)}` : ""}${e.due > e.amount ? ` (owed ${c.money(e.due)})` : ""}.`,
  collected: (e, c) => `${c.who(e.seat)} collected ${c.money(e.amount)}${e.for || e.why ? ` (${why(e.for || e.why)})` : ""}.`,
  chance: (e, c) => `${c.who(e.seat)} drew a Chance card: ${words(e.kind)}.`,
  chance_pile_empty: (e, c) => `${c.who(e.seat)} would draw a Chance card, but the pile is empty.`,
  took_free_property: (e, c) => `${c.who(e.seat)} took ${c.space(e.space)} for free.`,
  game_over: (e, c) => (e.winners
    ? `Game over: ${endReason(e.reason, c, e)}; ${won(e.winners, c)}.`
    : `Game over: ${endReason(e.reason, c, e)}.`),
  // Cash 'n Guns
  round_started: (e, c) => `Round ${e.round}: ${c.who(e.godfather)} is the Godfather.`,
  round_ended: (e) => `Round ${e.round} is over.`,
  bullet_card: (e, c) => `${c.who(e.seat)} loaded ${e.card === "bang" ? "a Bang!" : "a Click."}`,
  bullet_chosen: (e, c) => `${c.who(e.seat)} loaded a card.`,
  aim_secret: (e, c) => `${c.who(e.seat)} aims at ${c.who(e.target)}.`,
  aimed: (e, c) => `${c.who(e.seat)} took aim.`,
  aims_revealed: (e, c) => `Guns out: ${e.targets.map((t, s) => (t === null ? null : `${c.who(s)} → ${c.who(t)}`)).filter(Boolean).join(", ") || "nobody aims"}.`,
  privilege_used: (e, c) => `The Godfather ${c.who(e.godfather)} made ${c.who(e.seat)} aim elsewhere.`,
  privilege_passed: (e, c) => `The Godfather ${c.who(e.godfather)} let it be.`,
  retargeted: (e, c) => `${c.who(e.seat)} now aims at ${c.who(e.to)}.`,
  courage_secret: (e, c) => `${c.who(e.seat)} decided to ${e.stand ? "stand" : "lie down"}.`,
  courage_decided: (e, c) => `${c.who(e.seat)} made up their mind.`,
  courage_revealed: (e, c) => `Standing: ${list(e.standing, c)}; lying down: ${list(e.lying_down, c)}.`,
  bullets_revealed: (e, c) => `Cards shown: ${e.cards.map((shown, s) => (shown ? `${c.who(s)} ${card(shown)}` : null)).filter(Boolean).join(", ") || "none"}.`,
  shot: (e, c) => `${c.who(e.shooter)} shot at ${c.who(e.target)}${e.wounded ? " and hit" : " (a Click: no harm)"}.`,
  wounded: (e, c) => `${c.who(e.seat)} is wounded (${plural(e.wounds, "wound")} in all).`,
  killed: (e, c) => `${c.who(e.seat)} is out of the game (three wounds).`,
  loot_taken: (e, c) => `${c.who(e.seat)} took ${loot(e.card)}.`,
  godfather_token_taken: (e, c) => `${c.who(e.seat)} took the Godfather token.`,
  loot_lost: (e) => `Nobody took ${e.cards.map(loot).join(", ")}: it is lost.`,
  healed: (e, c) => (e.wounds_healed ? `${c.who(e.seat)} healed ${plural(e.wounds_healed, "wound")}.`
    : `${c.who(e.seat)} had no wound to heal.`),
  reloaded: (e, c) => `${c.who(e.seat)} reloaded: a Bang! from the discard pile.`,
  clip_lost: (e, c) => `${c.who(e.seat)}'s clip is wasted: ${e.why === "no_bang_in_discard" ? "no Bang! in the discard pile" : "no card in hand to swap"}.`,
  clip_discard_secret: (e, c) => `${c.who(e.seat)} discarded ${e.card === "bang" ? "a Bang!" : "a Click."}`,
  clip_discarded: (e, c) => `${c.who(e.seat)} discarded a card.`,
  // Hitchiker
  turn_order_rolled: (e, c) => `Turn order rolled: ${c.who(e.first)} goes first.`,
  hometown_picked: (e, c) => `${c.who(e.seat)} picked ${e.name ?? c.space(e.city)} as hometown.`,
  game_started: (e, c) => `${c.who(e.first)} starts.`,
  player_joined: (e, c) => `${c.who(e.seat)} joined the game at ${c.space(e.at)}.`,
  joined_homeless: (e, c) => `${c.who(e.seat)} joined without a hometown (none is free).`,
  rolled: (e, c) => `${c.who(e.seat)} rolled ${e.dice.join(" + ")}${e.doubles ? " (doubles)" : ""}.`,
  still_in_pot_hole: (e, c) => `${c.who(e.seat)} rolled ${e.roll} and is still in the pot hole.`,
  escaped_pot_hole: (e, c) => `${c.who(e.seat)} rolled ${e.roll} and got out of the pot hole.`,
  moving: (e, c) => `${c.who(e.seat)} hitches ${plural(e.steps, "city", "cities")} from ${c.space(e.from)}.`,
  passed_hometown: (e, c) => `${c.who(e.seat)} passed home (${c.space(e.city)}).`,
  landed: (e, c) => `${c.who(e.seat)} landed on ${e.name ?? c.space(e.city)}.`,
  paid: (e, c) => `${c.who(e.from ?? e.seat)} paid ${c.money(e.amount)} to ${c.who(e.to)}${e.for || e.why ? ` for ${why(e.for || e.why)}` : ""}${e.owed > e.amount ? ` (owed ${c.money(e.owed)})` : ""}.`,
  went_broke: (e, c) => `${c.who(e.seat)} is broke.`,
  bussed_home: (e, c) => `${c.who(e.seat)} took the bus home to ${c.space(e.to)}.`,
  deposited: (e, c) => `${c.who(e.seat)} banked ${c.money(e.amount)} (savings now ${c.money(e.savings)}).`,
  declined: (e, c) => `${c.who(e.seat)} ${DECLINED[e.what] ?? `said no (${words(e.what)})`}.`,
  hometown_priced: (e, c) => `${c.space(e.city)} is for sale to ${c.who(e.seat)} at ${c.money(e.price)}.`,
  hometown_bought: (e, c) => `${c.who(e.seat)} bought ${c.space(e.city)} for ${c.money(e.price)}.`,
  rent_roll: (e, c) => `${c.who(e.seat)} rolled ${e.roll} for the rent owed to ${c.who(e.owner)}.`,
  no_hometown: (e, c) => `${c.who(e.seat)} has no hometown to go to.`,
  shark_roll: (e, c) => `${c.who(e.seat)} rolled ${e.roll} in shark waters.`,
  in_pot_hole: (e, c) => `${c.who(e.seat)} fell into a pot hole.`,
  contraband_found: (e, c) => `${c.who(e.seat)} found ${units(e.units)} of contraband.`,
  contraband_sold: (e, c) => `${c.who(e.seat)} sold ${units(e.units)} of contraband at ${c.money(e.price)} each.`,
  contraband_lost: (e, c) => `${c.who(e.seat)} lost ${units(e.units)} of contraband.`,
  customs_cleared: (e, c) => `${c.who(e.seat)} passed customs with nothing to declare.`,
  busted: (e, c) => `${c.who(e.seat)} was busted: lost ${units(e.units_lost)} of contraband, ${c.money(e.cash)} cash and ${c.money(e.savings)} of savings, which go to ${c.who(e.to)}.`,
  bad_ride_reshuffled: () => "The Bad Ride cards are shuffled again.",
  bad_ride: (e, c) => `Bad Ride for ${c.who(e.seat)}: ${e.text}`,
  rolled_for_bill: (e, c) => `${c.who(e.seat)} rolled ${e.roll} for the bill.`,
  savings_lost: (e, c) => `${c.who(e.seat)} lost ${c.money(e.amount)} of savings.`,
  savings_withdrawn: (e, c) => `${c.who(e.seat)} took ${c.money(e.amount)} out of savings.`,
  black_market_skipped: (e, c) => `${c.who(e.seat)} has no travelling cash for the black market.`,
  deal_opened: (e, c) => `${c.who(e.seat)} risks ${c.money(e.stake)} on a black-market deal.`,
  deal_rolled: (e, c) => `${c.who(e.roller)} rolled ${e.dice.join(" + ")} for ${c.who(e.seat)}'s deal: ${e.outcome}.`,
  deal_declined: (e, c) => `${c.who(e.seat)} turned the deal down.`,
  contraband_bought: (e, c) => `${c.who(e.seat)} bought ${units(e.units)} of contraband for ${c.money(e.cost)}${e.change ? ` (${c.money(e.change)} change)` : ""}.`,
  contraband_free: (e, c) => `${c.who(e.seat)} got ${units(e.units)} of contraband free.`,
  ripped_off: (e, c) => `${c.who(e.by)} ripped ${c.who(e.seat)} off: ${c.money(e.amount)} gone.`,
  casino_opened: (e, c) => `The casino opens; ${c.who(e.dealer)} deals.`,
  casino_round_skipped: (e) => `Casino round ${e.round} is skipped: ${e.why}.`,
  casino_round_dealt: (e, c) => `Casino round ${e.round}: ${e.hands.map((h) => `${c.who(h.seat)} ${h.cards.join(" ")}`).join(", ")}; the house shows ${e.house.join(" ")}.`,
  hand_withdrawn: (e, c) => `${c.who(e.seat)} leaves the table: ${e.why}.`,
  bet_placed: (e, c) => `${c.who(e.seat)} bet ${c.money(e.amount)}.`,
  card_dealt: (e, c) => `${c.who(e.seat)} drew ${e.card}.`,
  blackjack: (e, c) => `Blackjack for ${c.who(e.seat)}: won ${c.money(e.won)}.`,
  hand_bust: (e, c) => `${c.who(e.seat)} went bust and lost ${c.money(e.lost)}.`,
  doubled_down: (e, c) => `${c.who(e.seat)} doubled down (bet ${c.money(e.bet)}).`,
  split: (e, c) => `${c.who(e.seat)} split the hand (bet ${c.money(e.bet)} each).`,
  house_played: (e) => `The house drew to ${e.cards.join(" ")} (${e.total}).`,
  hand_settled: (e, c) => `${c.who(e.seat)}'s hand ${HAND_OUTCOMES[e.outcome] ?? words(e.outcome)}: ${c.money(e.paid)} back.`,
  casino_closed: () => "The casino closes.",
  died: (e, c) => `${c.who(e.seat)} died (${words(e.cause)})${typeof e.heir === "number" ? `; ${c.who(e.heir)} inherits` : ""}.`,
  reincarnated_homeless: (e, c) => `${c.who(e.seat)} is back in the game, homeless, at ${c.space(e.at)}.`,
  game_won: (e, c) => `Game over: ${endReason(e.reason, c, e)}; ${won(e.winners, c)}.`,
  turn_cap_reached: (e, c) => `The turn limit is reached; ${won(e.winners, c)}.`,
  // Whipca$h
  turn_order: (e, c) => `Turn order: ${(e.order || []).map(c.who).join(", ")}.`,
  stayed_in_pit: (e, c) => `${c.who(e.seat)} stays in ${c.who(e.pit)}'s pit.`,
  escaped_pit: (e, c) => `${c.who(e.seat)} got out of ${c.who(e.pit)}'s pit.`,
  entered_freeway: (e, c) => `${c.who(e.seat)} took the Blind Justice Freeway.`,
  in_pit: (e, c) => `${c.who(e.seat)} is in ${c.who(e.pit)}'s pit.`,
  whipcash: (e, c) => `Whipca$h! ${c.who(e.seat)} hit ${list(e.cars, c)}.`,
  sent_to_pit: (e, c) => `${c.who(e.by)} sent ${c.who(e.seat)} to ${c.who(e.pit)}'s pit.`,
  rolled_for_cash: (e, c) => `${c.who(e.seat)} rolled ${e.dice.join(" + ")} for cash.`,
  anti_fender_bender: (e, c) => `${c.who(e.seat)} played the Anti-Fender-Bender: ${c.money(e.cancelled)} to ${c.who(e.to)} cancelled.`,
  pro_bankrupted: (e, c) => `${c.who(e.pro)} went bankrupt (${c.who(e.by)} takes over).`,
  player_bankrupted: (e, c) => `${c.who(e.seat)} went bankrupt (${c.who(e.by)} takes over).`,
};

/** The event types this page puts in words (tests/web/test_words.py compares them with the engine's lists). */
export const WORDED_EVENT_TYPES = Object.keys(EVENTS);

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

/** The event's own sentence; throws for an event type without one (or fields it does not expect). */
export function sentence(event, ctx) {
  const template = EVENTS[event.type];
  if (!template) throw new Error(`no words for the event type ${event.type}`);
  return template(event, ctx);
}

/** The event in words; an event this page does not know yet (a newer service) in plain terms. */
export function describe(event, ctx) {
  try {
    return sentence(event, ctx);
  } catch {
    return plain(event, ctx);
  }
}

const DECISION_TITLES = {
  choose_bullet: "Load your gun", aim: "Take aim", privilege: "Godfather: make someone aim elsewhere?",
  retarget: "Aim elsewhere", courage: "Stand or lie down?", take_loot: "Take your pick of the loot",
  clip_discard: "Swap a card for the Bang!", turn: "Your turn", roll: "Your roll", jail: "In prison",
  chance_move: "Chance: how far?", chance_property: "Chance: take a property", pick_hometown: "Pick your hometown",
  buy_hometown: "Buy this Hometown?", deposit: "Bank some money?", sell: "Sell your contraband?",
  black_market: "The black market", deal_choice: "Take the deal?", deal_roll: "Roll for the deal", bet: "Place your bet",
  play_hand: "Play your hand", go_home: "Go home?", anti_fender_bender: "Play the Anti-Fender-Bender?",
  send_to_pit: "Send them to a pit?", escape_pit: "Roll to get out of the pit",
};

/** The heading of a pending decision. */
export function decisionTitle(kind) {
  return DECISION_TITLES[kind] ?? words(kind).replace(/^./, (first) => first.toUpperCase());
}

/** The label of a button that sends this action. */
export function actionLabel(action, ctx) {
  const { type } = action;
  switch (type) {
    case "choose_bullet": return `Load a ${card(action.card)}`;
    case "clip_discard": return `Discard a ${card(action.card)}`;
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
