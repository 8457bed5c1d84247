"""The Chance deck: cards as data (``data/chance.json``), validated against the board they are used with."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engine.games.monopoly_cars2.board import Board

ADVANCE_TO_GO = "advance_to_go"
GO_TO_SPACE = "go_to_space"
FREE_PROPERTY = "free_property"
PAY_BANK = "pay_bank"
COLLECT = "collect"
GET_OUT_OF_JAIL = "get_out_of_jail"
MOVE_FORWARD = "move_forward"
CARD_KINDS = (ADVANCE_TO_GO, GO_TO_SPACE, FREE_PROPERTY, PAY_BANK, COLLECT, GET_OUT_OF_JAIL, MOVE_FORWARD)

#: the parameter each kind needs (kinds not listed need none)
CARD_PARAMETERS = {
    GO_TO_SPACE: "space",
    FREE_PROPERTY: "colours",
    PAY_BANK: "amount",
    COLLECT: "amount",
    MOVE_FORWARD: "max_spaces",
}
MAX_CARDS = 64


@dataclass(slots=True, frozen=True)
class Card:
    index: int
    kind: str
    text: str
    #: go_to_space: the target's board index
    space: int = -1
    #: free_property: the colours named on the card
    colours: tuple[str, ...] = ()
    #: pay_bank / collect: the sum
    amount: int = 0
    #: move_forward: the player picks 1 .. max_spaces
    max_spaces: int = 0

    def public(self) -> dict:
        body: dict = {"index": self.index, "kind": self.kind, "text": self.text}
        if self.kind == GO_TO_SPACE:
            body["space"] = self.space
        elif self.kind == FREE_PROPERTY:
            body["colours"] = list(self.colours)
        elif self.kind in (PAY_BANK, COLLECT):
            body["amount"] = self.amount
        elif self.kind == MOVE_FORWARD:
            body["max_spaces"] = self.max_spaces
        return body


class CardSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(CARD_KINDS))
    text = fields.String(load_default="", validate=validate.Length(max=200))
    space = fields.String(validate=validate.Length(min=1))
    colours = fields.List(fields.String(), validate=validate.Length(min=1, max=8))
    amount = fields.Integer(strict=True, validate=validate.Range(min=1, max=100))
    max_spaces = fields.Integer(strict=True, validate=validate.Range(min=1, max=12))

    @validates_schema
    def parameters(self, data: dict, **_: object) -> None:
        needed = CARD_PARAMETERS.get(data["kind"])
        errors = {}
        if needed is not None and needed not in data:
            errors[needed] = [f"required on a {data['kind']} card"]
        for name in set(CARD_PARAMETERS.values()) - {needed}:
            if name in data:
                errors[name] = [f"a {data['kind']} card has no {name}"]
        if errors:
            raise ValidationError(errors)


class DeckSchema(Schema):
    cards = fields.List(fields.Nested(CardSchema), required=True, validate=validate.Length(min=1, max=MAX_CARDS))


def parse_deck(data: object, board: Board) -> list[Card]:
    """Validated cards; ``ValidationError`` when a card is malformed or names what the board lacks."""
    loaded = DeckSchema().load(data)
    errors: dict = {}
    cards = []
    for index, card in enumerate(loaded["cards"]):
        space = -1
        if "space" in card:
            space = board.by_id.get(card["space"], -1)
            if space < 0:
                errors[index] = {"space": [f"no space {card['space']!r} on the board"]}
        colours = tuple(card.get("colours", ()))
        unknown = sorted(set(colours) - set(board.colours))
        if unknown:
            errors[index] = {"colours": [f"no such colour on the board: {', '.join(unknown)}"]}
        cards.append(Card(
            index=index,
            kind=card["kind"],
            text=card["text"],
            space=space,
            colours=colours,
            amount=card.get("amount", 0),
            max_spaces=card.get("max_spaces", 0),
        ))
    if errors:
        raise ValidationError({"cards": errors})
    return cards
