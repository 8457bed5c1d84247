"""The board: spaces as data (``data/board.json``), validated once and read-only afterwards."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

GO = "go"
PROPERTY = "property"
CHANCE = "chance"
JAIL = "jail"
FREE_PARKING = "free_parking"
GO_TO_JAIL = "go_to_jail"
RACE_AGAIN = "race_again"
SPACE_KINDS = (GO, PROPERTY, CHANCE, JAIL, FREE_PARKING, GO_TO_JAIL, RACE_AGAIN)

MIN_SPACES = 8
MAX_SPACES = 64
MAX_PRICE = 100


@dataclass(slots=True, frozen=True)
class Space:
    index: int
    id: str
    kind: str
    name: str
    colour: str = ""
    price: int = 0


@dataclass(slots=True)
class Board:
    """A parsed board plus the lookups the rules need on every move."""

    spaces: list[Space]
    go_salary: int
    jail_fine: int
    jail: int
    #: space index -> the other property of its colour (-1 for non-properties)
    partner: list[int]
    by_id: dict[str, int]
    #: colour -> its property indices, in board order
    colours: dict[str, list[int]]
    #: the JSON-safe description a view shows (built once, shared by every view)
    public: list[dict]

    def __len__(self) -> int:
        return len(self.spaces)


class SpaceSchema(Schema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    kind = fields.String(required=True, validate=validate.OneOf(SPACE_KINDS))
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    colour = fields.String(validate=validate.Length(min=1, max=32))
    price = fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_PRICE))

    @validates_schema
    def property_fields(self, data: dict, **_: object) -> None:
        if data.get("kind") == PROPERTY:
            errors = {name: ["required on a property"] for name in ("colour", "price") if name not in data}
            if errors:
                raise ValidationError(errors)
        else:
            extra = {name: ["only properties have this"] for name in ("colour", "price") if name in data}
            if extra:
                raise ValidationError(extra)


class BoardSchema(Schema):
    go_salary = fields.Integer(strict=True, load_default=2, validate=validate.Range(min=0, max=MAX_PRICE))
    jail_fine = fields.Integer(strict=True, load_default=1, validate=validate.Range(min=0, max=MAX_PRICE))
    spaces = fields.List(
        fields.Nested(SpaceSchema), required=True, validate=validate.Length(min=MIN_SPACES, max=MAX_SPACES)
    )

    @validates_schema
    def layout(self, data: dict, **_: object) -> None:
        spaces = data.get("spaces") or []
        problems = []
        if spaces[0]["kind"] != GO:
            problems.append("space 0 must be GO")
        kinds = Counter(space["kind"] for space in spaces)
        if kinds[GO] != 1:
            problems.append("there must be exactly one GO space")
        if kinds[JAIL] != 1:
            problems.append("there must be exactly one jail space (prison / just visiting)")
        duplicates = sorted(i for i, n in Counter(space["id"] for space in spaces).items() if n > 1)
        if duplicates:
            problems.append(f"space ids must be unique: {', '.join(duplicates)}")
        colours = Counter(space["colour"] for space in spaces if space["kind"] == PROPERTY)
        if not colours:
            problems.append("the board needs at least one colour pair of properties")
        unpaired = sorted(colour for colour, n in colours.items() if n != 2)
        if unpaired:
            problems.append(f"each colour must have exactly two properties: {', '.join(unpaired)}")
        if problems:
            raise ValidationError(problems, "spaces")


def parse_board(data: object) -> Board:
    """A validated ``Board``; ``ValidationError`` (field messages) when the data is wrong."""
    loaded = BoardSchema().load(data)
    spaces = [Space(index=i, **space) for i, space in enumerate(loaded["spaces"])]
    colours: dict[str, list[int]] = {}
    for space in spaces:
        if space.kind == PROPERTY:
            colours.setdefault(space.colour, []).append(space.index)
    partner = [-1] * len(spaces)
    for first, second in colours.values():
        partner[first], partner[second] = second, first
    public = []
    for space in spaces:
        entry = {"index": space.index, "id": space.id, "kind": space.kind, "name": space.name}
        if space.kind == PROPERTY:
            entry["colour"] = space.colour
            entry["price"] = space.price
        public.append(entry)
    return Board(
        spaces=spaces,
        go_salary=loaded["go_salary"],
        jail_fine=loaded["jail_fine"],
        jail=next(space.index for space in spaces if space.kind == JAIL),
        partner=partner,
        by_id={space.id: space.index for space in spaces},
        colours=colours,
        public=public,
    )
