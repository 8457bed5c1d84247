"""Each ruleset's observation encoding and action catalogue (docs/agents.md lists them feature by feature).

An observation is read from the seat's own view (``Ruleset.view(state, seat)``) and nothing else, so it
holds no more than the seat may know. It is a flat ``float32`` vector: a common header, then the game's
own features. Tables smaller than the ruleset's largest are padded with zeros (``present`` says which
seats sit at the table), so one policy fits every table size. Amounts of money are raw dollars.

The common header: ``seat[i]`` (one-hot: whose observation this is), ``present[i]`` (1 for seats at the
table), ``decides[kind]`` (1 for each kind of decision pending for this seat now), ``turn``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.core.ruleset import Ruleset
from envs.actions import ActionCatalogue

Features = list[float]


@dataclass(frozen=True)
class Encoding:
    """One ruleset's encoding: its decision kinds, feature names and encoder, and its action catalogue."""

    ruleset_id: str
    #: every decision kind of the ruleset, in the order of the header's ``decides`` one-hot
    kinds: tuple[str, ...]
    #: the game's own feature names (after the header), for ``max_players`` seats
    game_names: Callable[[int], list[str]]
    #: (view, seat, max_players, out) -> appends the game's own features to ``out``
    game_features: Callable[[dict, int, int, Features], None]
    #: (ruleset, a fresh state of the table) -> the action catalogue
    catalogue: Callable[[Ruleset, object], ActionCatalogue]

    def names(self, max_players: int) -> list[str]:
        header = ([f"seat[{i}]" for i in range(max_players)] + [f"present[{i}]" for i in range(max_players)]
                  + [f"decides[{kind}]" for kind in self.kinds] + ["turn"])
        return header + self.game_names(max_players)

    def encode(self, view: dict, seat: int, players: int, max_players: int, kinds: set[str]) -> np.ndarray:
        out: Features = [0.0] * max_players
        out[seat] = 1.0
        out += [1.0 if i < players else 0.0 for i in range(max_players)]
        out += [1.0 if kind in kinds else 0.0 for kind in self.kinds]
        out.append(float(view.get("turn", 0) or 0))
        self.game_features(view, seat, max_players, out)
        return np.asarray(out, dtype=np.float32)


def _per_player(names: list[str], max_players: int) -> list[str]:
    return [f"player[{i}].{name}" for i in range(max_players) for name in names]


def _pad(out: Features, rows: list[list[float]], width: int, max_players: int) -> None:
    for row in rows:
        out += row
    out += [0.0] * (width * (max_players - len(rows)))


def _flag(value: object) -> float:
    return 1.0 if value else 0.0


# -- Hitchiker ------------------------------------------------------------------------------------

HITCHIKER_PLAYER = ["cash", "savings", "units", "position", "hometowns", "in_pot_hole", "active", "decider"]
HITCHIKER_GLOBAL = ["bank", "deposit_limit", "offer_price", "turn_cap", "bad_ride_cards_left",
                    "deal.open", "deal.mine", "deal.stake", "deal.rolls", "deal.last_roll", "deal.outcome_value",
                    "casino.open", "casino.house_total", "hand.mine", "hand.total", "hand.soft", "hand.bet",
                    "hand.cards"]


def _hitchiker_names(max_players: int) -> list[str]:
    return HITCHIKER_GLOBAL + _per_player(HITCHIKER_PLAYER, max_players)


def _hitchiker_features(view: dict, seat: int, max_players: int, out: Features) -> None:
    deal = view["deal"] or {}
    outcome = deal.get("outcome") or {}
    casino = view["casino"] or {}
    hands = casino.get("hands") or []
    current = casino.get("current", 0) or 0
    hand = hands[current] if 0 <= current < len(hands) else {}
    out += [view["bank"], view["deposit_limit"] or 0, view["offer_price"] or 0, view["turn_cap"] or 0,
            view["bad_ride_cards_left"],
            _flag(deal), _flag(deal and deal.get("buyer") == seat), deal.get("stake", 0) or 0,
            deal.get("rolls", 0) or 0, deal.get("last_roll", 0) or 0,
            outcome.get("value", 0) if isinstance(outcome.get("value"), int) else 0,
            _flag(casino), casino.get("house_total", 0) or 0, _flag(hand and hand.get("seat") == seat),
            hand.get("total", 0) or 0, _flag(hand.get("soft")), hand.get("bet", 0) or 0, len(hand.get("cards", ()))]
    active, decider = view["active"], view["decider"]
    rows = [[p["cash"], p["savings"], p["units"], p["position"], len(p["hometowns"]), _flag(p["in_pot_hole"]),
             _flag(i == active), _flag(i == decider)] for i, p in enumerate(view["players"])]
    _pad(out, rows, len(HITCHIKER_PLAYER), max_players)


def _hitchiker_catalogue(ruleset: Ruleset, state) -> ActionCatalogue:
    tables = ruleset.tables(state)
    hometowns = [tables.cities[c].name for c in tables.hometowns]
    fixed = ([{"type": "pick_hometown", "city": name} for name in hometowns]
             + [{"type": kind} for kind in ("roll", "buy_hometown", "pass", "accept_deal", "decline_deal", "sell",
                                            "hit", "stick", "split", "double_down")]
             + [{"type": "go_home", "city": name} for name in hometowns])
    return ActionCatalogue(fixed, {"deposit": "amount", "risk": "amount", "bet": "amount"})


HITCHIKER = Encoding(
    "hitchiker",
    ("pick_hometown", "roll", "deposit", "buy_hometown", "sell", "black_market", "deal_roll", "deal_choice", "bet",
     "play_hand", "go_home"),
    _hitchiker_names, _hitchiker_features, _hitchiker_catalogue)


# -- Cash 'n Guns ---------------------------------------------------------------------------------

CNG_PHASES = ("bullets", "aim", "privilege", "retarget", "courage", "loot", "clip", "over")
CNG_PLAYER = ["alive", "wounds", "loot_value", "diamond_cards", "hand_size", "has_chosen", "has_aimed",
              "aims_at_me", "aims_at_nobody", "target", "has_decided", "standing", "shown_clicks", "shown_bangs",
              "face_down_discards", "godfather", "picker", "forced", "token_taker"]


def _cng_card_ids() -> list[str]:
    from engine.games.cash_n_guns.cards import CATALOG
    return list(CATALOG)


def _cng_names(max_players: int) -> list[str]:
    return ([f"phase[{phase}]" for phase in CNG_PHASES]
            + ["round", "rounds", "token_available", "piles_left", "hand.click", "hand.bang", "bullet",
               "discard.click", "discard.bang", "discard.face_down", "diamond_bonus"]
            + [f"lineup[{card}]" for card in _cng_card_ids()] + _per_player(CNG_PLAYER, max_players))


_CNG_CARDS = None


def _cng_features(view: dict, seat: int, max_players: int, out: Features) -> None:
    global _CNG_CARDS
    if _CNG_CARDS is None:
        _CNG_CARDS = {card: index for index, card in enumerate(_cng_card_ids())}
    phase = view["phase"]
    out += [_flag(phase == p) for p in CNG_PHASES]
    hand, discard, bullet = view["hand"], view["discard"], view["bullet"]
    out += [view["round"], view["rounds"], _flag(view["token_available"]), view["piles_left"],
            hand["click"], hand["bang"], 0 if bullet is None else (1 if bullet == "click" else 2),
            discard["click"], discard["bang"], discard["face_down"], view["diamond_bonus"]]
    lineup = [0.0] * len(_CNG_CARDS)
    for card in view["lineup"]:
        lineup[_CNG_CARDS[card]] += 1
    out += lineup
    godfather, picker, forced, taker = view["godfather"], view["picker"], view["forced"], view["token_taker"]
    rows = []
    for i, p in enumerate(view["players"]):
        target = p["target"]
        standing = p["standing"]
        rows.append([
            _flag(p["alive"]), p["wounds"], p["loot_value"], p["diamond_cards"], p["hand_size"],
            _flag(p["has_chosen"]), _flag(p["has_aimed"]), _flag(target == seat),
            _flag(p["has_aimed"] and target is None and (phase != "aim" or i == seat)),
            -1 if target is None else target, _flag(p["has_decided"]),
            -1 if standing is None else (1 if standing else 0), p["shown"]["click"], p["shown"]["bang"],
            p["face_down_discards"], _flag(i == godfather), _flag(i == picker), _flag(i == forced),
            _flag(i == taker)])
    _pad(out, rows, len(CNG_PLAYER), max_players)


def _cng_catalogue(ruleset: Ruleset, state) -> ActionCatalogue:
    seats = range(ruleset.max_players)
    fixed = ([{"type": "choose_bullet", "card": card} for card in ("click", "bang")]
             + [{"type": "aim", "target": seat} for seat in seats] + [{"type": "aim", "target": None}]
             + [{"type": "privilege", "target": seat} for seat in seats] + [{"type": "privilege", "target": None}]
             + [{"type": "retarget", "target": seat} for seat in seats]
             + [{"type": "courage", "stand": True}, {"type": "courage", "stand": False}]
             + [{"type": "take_loot", "card": card} for card in _cng_card_ids()]
             + [{"type": "take_godfather_token"}]
             + [{"type": "clip_discard", "card": card} for card in ("click", "bang")])
    return ActionCatalogue(fixed, {})


CASH_N_GUNS = Encoding(
    "cash-n-guns", ("choose_bullet", "aim", "privilege", "retarget", "courage", "take_loot", "clip_discard"),
    _cng_names, _cng_features, _cng_catalogue)


# -- Monopoly Cars 2 ------------------------------------------------------------------------------

MC2_PLAYER = ["money", "position", "in_prison", "jail_cards", "properties", "current"]
#: the most spaces a Chance card's move_forward offers (the card schema's maximum)
MC2_MAX_SPACES = 12


def _mc2_names_for(spaces: int) -> Callable[[int], list[str]]:
    def names(max_players: int) -> list[str]:
        return (["bank", "last_spin", "pending_card", "pile_size", "turn_cap"]
                + [f"owner[{space}]" for space in range(spaces)] + _per_player(MC2_PLAYER, max_players))
    return names


def _mc2_features(view: dict, seat: int, max_players: int, out: Features) -> None:
    chance = view["chance"]
    pending = chance["pending_card"]
    out += [view["bank"], view["last_spin"] or 0, -1 if pending is None else pending, chance["pile_size"],
            view["turn_cap"] or 0]
    # an owned space: 1 if the observing seat owns it, -1 if another seat does, 0 if nobody
    out += [0.0 if owner is None else (1.0 if owner == seat else -1.0) for owner in view["owners"]]
    current = view["current"]
    rows = [[p["money"], p["position"], _flag(p["in_prison"]), len(p["jail_cards"]), len(p["properties"]),
             _flag(i == current)] for i, p in enumerate(view["players"])]
    _pad(out, rows, len(MC2_PLAYER), max_players)


def _mc2_catalogue(ruleset: Ruleset, state) -> ActionCatalogue:
    spaces = len(ruleset.tables(state).board.spaces)
    fixed = ([{"type": "roll"}, {"type": "use_jail_card"}]
             + [{"type": "choose_property", "space": space} for space in range(spaces)]
             + [{"type": "move_forward", "spaces": n} for n in range(1, MC2_MAX_SPACES + 1)])
    return ActionCatalogue(fixed, {})


def _mc2_encoding(spaces: int) -> Encoding:
    return Encoding("monopoly-cars2", ("turn", "jail", "chance_property", "chance_move"),
                    _mc2_names_for(spaces), _mc2_features, _mc2_catalogue)


# -- Whipcash -------------------------------------------------------------------------------------

WHIPCASH_PLAYER = ["cash", "position", "alive", "anti_fender_bender", "current"]
WHIPCASH_PROS = ("daily", "chasinbucks", "overbilled")


def _whipcash_names(max_players: int) -> list[str]:
    pros = [f"pro[{pro}].{name}" for pro in WHIPCASH_PROS for name in ("cash", "bankrupt", "held_by_me")]
    return ["bank", "dice_count", "extra_roll", "whipcash_queue", "pit_queue", "turn_cap", *pros,
            *_per_player(WHIPCASH_PLAYER, max_players)]


def _whipcash_features(view: dict, seat: int, max_players: int, out: Features) -> None:
    out += [view["bank"], view["dice_count"] or 0, _flag(view["extra_roll"]), len(view["whipcash_queue"]),
            len(view["pit_queue"]), view["turn_cap"] or 0]
    for pro in view["pros"]:
        out += [pro["cash"], _flag(pro["bankrupt"]), _flag(pro["holdings_owner"] == seat)]
    current = view["current"]
    rows = [[p["cash"], p["position"], _flag(p["alive"]), _flag(p["anti_fender_bender"]), _flag(i == current)]
            for i, p in enumerate(view["players"])]
    _pad(out, rows, len(WHIPCASH_PLAYER), max_players)


def _whipcash_catalogue(ruleset: Ruleset, state) -> ActionCatalogue:
    fixed = ([{"type": "roll", "dice": 1}, {"type": "roll", "dice": 2},
              {"type": "anti_fender_bender", "play": True}, {"type": "anti_fender_bender", "play": False}]
             + [{"type": "send_to_pit", "pit": pro} for pro in WHIPCASH_PROS])
    return ActionCatalogue(fixed, {})


WHIPCASH = Encoding("whipcash", ("roll", "escape_pit", "anti_fender_bender", "send_to_pit"),
                    _whipcash_names, _whipcash_features, _whipcash_catalogue)


def encoding_for(ruleset: Ruleset, state) -> Encoding:
    """The encoding of ``ruleset`` for a table like ``state`` (a custom Monopoly board sets its owner list)."""
    if ruleset.id == "monopoly-cars2":
        return _mc2_encoding(len(ruleset.tables(state).board.spaces))
    known = {e.ruleset_id: e for e in (HITCHIKER, CASH_N_GUNS, WHIPCASH)}
    if ruleset.id not in known:
        raise KeyError(f"no encoding for ruleset {ruleset.id!r}: add one to envs/encodings.py")
    return known[ruleset.id]
