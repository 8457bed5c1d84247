"""The loot deck and the bullet hand: card data loaded once, validated, and valued.

The catalog order in ``data/loot.json`` is the canonical order of a lineup (most
valuable bills first), so views and decision options list cards the same way every time.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

BILL = "bill"
DIAMOND = "diamond"
PAINTING = "painting"
FIRST_AID = "first_aid"
CLIP = "clip"
KINDS = (BILL, DIAMOND, PAINTING, FIRST_AID, CLIP)

CLICK = "click"
BANG = "bang"


@dataclass(frozen=True, slots=True)
class LootCard:
    id: str
    kind: str
    value: int
    order: int


@dataclass(frozen=True, slots=True)
class DeckData:
    catalog: dict[str, LootCard]
    counts: dict[str, int]
    piles: int
    pile_size: int
    painting_set_values: list[int]
    diamond_bonus: int
    clicks: int
    bangs: int


class DeckDataError(ValueError):
    """The loot data (shipped or given in options) breaks a rule; ``fields`` says where."""

    def __init__(self, fields: dict[str, list[str]]) -> None:
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in fields.items()))
        self.fields = fields


def deck_problems(counts: dict[str, int], catalog: dict[str, LootCard], cards_needed: int) -> list[str]:
    problems = [f"unknown card {card_id!r}" for card_id in counts if card_id not in catalog]
    problems += [f"{card_id}: a count is a whole number >= 0" for card_id, n in counts.items()
                 if isinstance(n, bool) or not isinstance(n, int) or n < 0]
    if not problems and sum(counts.values()) != cards_needed:
        problems.append(f"the deck must hold exactly {cards_needed} cards, not {sum(counts.values())}")
    return problems


def painting_chart_problems(values: list[int], paintings: int) -> list[str]:
    problems = []
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        problems.append("values are whole numbers >= 0")
    elif any(later < earlier for earlier, later in itertools.pairwise(values)):
        problems.append("a bigger set is never worth less")
    if len(values) < paintings:
        problems.append(f"needs a value for every set size up to {paintings} paintings")
    return problems


def parse_deck_data(raw: dict) -> DeckData:
    """Validate the loot data; raise ``DeckDataError`` listing every problem."""
    fields: dict[str, list[str]] = {}
    catalog: dict[str, LootCard] = {}
    counts: dict[str, int] = {}
    for order, entry in enumerate(raw.get("cards", [])):
        card_id, kind, value = entry.get("id"), entry.get("kind"), entry.get("value")
        if not isinstance(card_id, str) or card_id in catalog:
            fields.setdefault("cards", []).append(f"card {order}: a unique string id")
            continue
        if kind not in KINDS:
            fields.setdefault("cards", []).append(f"{card_id}: kind must be one of {list(KINDS)}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            fields.setdefault("cards", []).append(f"{card_id}: value is a whole number >= 0")
        catalog[card_id] = LootCard(card_id, kind, value, order)
        counts[card_id] = entry.get("count")
    piles, pile_size = raw.get("piles"), raw.get("pile_size")
    bullets = raw.get("bullets", {})
    clicks, bangs = bullets.get(CLICK), bullets.get(BANG)
    if not all(isinstance(n, int) and n > 0 for n in (piles, pile_size)):
        fields["piles"] = ["piles and pile_size are whole numbers > 0"]
    elif not (isinstance(clicks, int) and isinstance(bangs, int) and clicks >= 0 and bangs >= 0
              and clicks + bangs == piles):
        fields["bullets"] = ["one bullet card per round: click + bang must equal the number of piles"]
    else:
        problems = deck_problems(counts, catalog, piles * pile_size)
        if problems:
            fields.setdefault("cards", []).extend(problems)
    paintings = sum(n for card_id, n in counts.items()
                    if card_id in catalog and catalog[card_id].kind == PAINTING and isinstance(n, int))
    chart = raw.get("painting_set_values", [])
    problems = painting_chart_problems(chart, paintings)
    if problems:
        fields["painting_set_values"] = problems
    bonus = raw.get("diamond_bonus")
    if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
        fields["diamond_bonus"] = ["a whole number >= 0"]
    if fields:
        raise DeckDataError(fields)
    return DeckData(catalog, counts, piles, pile_size, list(chart), bonus, clicks, bangs)


def _load_shipped() -> DeckData:
    with open(Path(__file__).parent / "data" / "loot.json", encoding="utf-8") as handle:
        return parse_deck_data(json.load(handle))


DECK = _load_shipped()
CATALOG = DECK.catalog
CARD_ORDER = {card_id: card.order for card_id, card in CATALOG.items()}
CARD_VALUE = {card_id: card.value for card_id, card in CATALOG.items()}


def deal_piles(counts: dict[str, int], piles: int, pile_size: int, shuffle) -> list[list[str]]:
    """Shuffle the whole deck and cut it into piles (each pile sorted for display)."""
    deck = [card_id for card_id in CATALOG for _ in range(counts.get(card_id, 0))]
    shuffle(deck)
    return [sorted(deck[i * pile_size:(i + 1) * pile_size], key=CARD_ORDER.__getitem__) for i in range(piles)]


def painting_value(paintings: int, chart: list[int] | tuple[int, ...]) -> int:
    return chart[paintings - 1] if paintings else 0


def diamond_cards(loot: list[str] | tuple[str, ...]) -> int:
    return _diamond_cards(tuple(loot))


def loot_value(loot: list[str] | tuple[str, ...], chart: list[int] | tuple[int, ...]) -> int:
    """Bills and diamonds at face value plus the painting set (no diamond bonus)."""
    return _loot_value(tuple(loot), tuple(chart))


# Every view, value table and score reads these for each player's loot, millions of times in an
# analysis' play-outs, while a game sees few distinct loots: both are pure functions of the cards
# (and the chart) and the catalog is loaded once, so they are memoised on the tuples.
@lru_cache(maxsize=1 << 16)
def _diamond_cards(loot: tuple[str, ...]) -> int:
    return sum(1 for card_id in loot if CATALOG[card_id].kind == DIAMOND)


@lru_cache(maxsize=1 << 16)
def _loot_value(loot: tuple[str, ...], chart: tuple[int, ...]) -> int:
    paintings = 0
    total = 0
    for card_id in loot:
        card = CATALOG[card_id]
        if card.kind == PAINTING:
            paintings += 1
        else:
            total += card.value
    return total + painting_value(paintings, chart)


def face_value(cards: list[str]) -> int:
    return sum(map(CARD_VALUE.__getitem__, cards))
