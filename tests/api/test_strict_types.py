"""JSON bodies are typed strictly: a number where an integer belongs is not truncated, 0 is no boolean.

Every schema that loads a request body (the routes' JSON arguments, actions, game options,
records and evaluations) is walked field by field; then the spec's own request examples are
sent with each integer and boolean in them swapped for a look-alike of another type."""

from __future__ import annotations

import pytest
from marshmallow import Schema, ValidationError, fields, validate

from api.records.schemas import EvaluateRequestSchema
from engine.core.registry import all_rulesets
from engine.core.strict import WholeRegexp
from engine.records import RecordSchema
from tests.api.helpers import assert_problem, auth, create_game
from tests.api.test_spec_examples import new_example_game, operations, request_example
from tests.options_examples import leaves as leaves_of
from tests.options_examples import replaced

#: what each kind of field must refuse
LOOK_ALIKES = {fields.Boolean: (0, 1, 0.0, "true", "false", "yes"), fields.Integer: (2.5, 2.0, "2", True),
               fields.Number: ("2", True)}


def body_schemas(app, locations: tuple[str, ...] = ("json",)) -> dict[str, Schema]:
    """Every schema a request body (or the query, ...: ``locations``) is loaded with, by a name for
    the failure message."""
    found: dict[str, Schema] = {"EvaluateRequest": EvaluateRequestSchema(), "Record": RecordSchema()}
    for rule in app.url_map.iter_rules():
        view_class = getattr(app.view_functions[rule.endpoint], "view_class", None)
        for method in ("get", "post", "put", "patch", "delete"):
            for argument in getattr(getattr(view_class, method, None), "_apidoc", {}).get(
                    "arguments", {}).get("parameters", []):
                if argument["in"] in locations:
                    schema = argument["schema"]
                    found[f"{method.upper()} {rule.rule} {argument['in']}"] = (
                        schema() if isinstance(schema, type) else schema)
    for ruleset in all_rulesets().values():
        found[f"{ruleset.id} options"] = ruleset.options_schema()
        for action_type, schema in ruleset.action_schemas.items():
            found[f"{ruleset.id} action {action_type}"] = schema()
    return found


def leaves(field: fields.Field, path: str):
    """The fields under ``field`` that hold a JSON scalar, with their paths."""
    if isinstance(field, fields.Nested):
        for name, inner in field.schema.fields.items():
            yield from leaves(inner, f"{path}/{name}")
    elif isinstance(field, fields.List):
        yield from leaves(field.inner, f"{path}/0")
    elif isinstance(field, fields.Dict):
        if field.value_field is not None:
            yield from leaves(field.value_field, f"{path}/*")
    else:
        yield path, field


def test_every_integer_and_boolean_of_a_request_body_refuses_other_types(app):
    loose = []
    for name, schema in body_schemas(app).items():
        for field_name, field in schema.fields.items():
            for path, leaf in leaves(field, f"/{field_name}"):
                kind = next((kind for kind in LOOK_ALIKES if isinstance(leaf, kind)), None)
                for value in LOOK_ALIKES.get(kind, ()):
                    try:
                        leaf.deserialize(value)
                    except ValidationError:
                        continue
                    loose.append(f"{name} {path} takes {value!r}")
    assert not loose, "\n".join(loose)


def test_every_pattern_of_a_request_matches_the_whole_string(app):
    """marshmallow's ``Regexp`` lets a final newline past ``$`` (``after=0%0A`` reached Redis as a
    stream id: a 503); every pattern of a body or a query is ``WholeRegexp``."""
    loose = []
    for name, schema in body_schemas(app, ("json", "query")).items():
        for field_name, field in schema.fields.items():
            for path, leaf in leaves(field, f"/{field_name}"):
                loose += [f"{name} {path}" for validator in leaf.validators
                          if isinstance(validator, validate.Regexp) and not isinstance(validator, WholeRegexp)]
    assert not loose, "\n".join(loose)


def test_a_value_of_a_pattern_with_a_final_newline_is_422_at_its_field(client):
    game = create_game(client, "monopoly-cars2", [{"name": "A"}, {"name": "B"}])
    for path, pointer in ((f"/v1/games/{game['id']}/events?after=0%0A", "/after"),
                          (f"/v1/games/{game['id']}/events?after=1-0%0A", "/after"),
                          (f"/v1/games/{game['id']}/chat?after=0%0A", "/after"),
                          ("/v1/games?cursor=1:ab%0A", "/cursor")):
        problem = assert_problem(client.get(path, headers=auth(game["seats"][0]["token"])), 422, "validation-error")
        assert [error["pointer"] for error in problem["errors"]] == [pointer], (path, problem)
    named = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": [{"player": "ann\n"}, {"name": "B"}]})
    assert "/seats/0/player" in [error["pointer"] for error in assert_problem(named, 422, "validation-error")["errors"]]
    entered = client.post("/v1/tournaments", json={"ruleset": "monopoly-cars2", "format": "swiss", "table_size": 2,
                                                   "entrants": ["ann\n", "bob"]})
    assert "/entrants/0" in [error["pointer"] for error in assert_problem(entered, 422, "validation-error")["errors"]]


@pytest.mark.parametrize(("path", "body", "pointer"), [
    ("/v1/games", {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}], "seed": 2.5}, "/seed"),
    ("/v1/games", {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}], "hints": 0}, "/hints"),
    ("/v1/games", {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"open": 1}]}, "/seats/1/open"),
    ("/v1/games", {"ruleset": "hitchiker", "seats": [{"name": "A"}, {"name": "B"}],
                   "options": {"savings_to_pouch": "yes"}}, "/options/savings_to_pouch"),
    ("/v1/simulations", {"ruleset": "monopoly-cars2", "games": 10, "seed": 2.5}, "/seed"),
    ("/v1/simulations", {"ruleset": "monopoly-cars2", "games": 10.5}, "/games"),
    ("/v1/simulations", {"ruleset": "whipcash", "games": 10, "options": {"turn_cap": 3.5}}, "/options/turn_cap"),
])
def test_a_look_alike_of_another_type_is_422_at_its_field(client, path, body, pointer):
    problem = assert_problem(client.post(path, json=body), 422, "validation-error")
    assert pointer in [error["pointer"] for error in problem["errors"]], problem


def test_no_request_example_takes_a_look_alike_for_its_integers_and_booleans(client):
    spec = client.get("/openapi.json").get_json()
    tried = []
    for method, path, operation, _ in operations(spec):
        example = request_example(operation) if "requestBody" in operation else None
        for where, value in leaves_of(example):
            if not isinstance(value, bool | int):
                continue
            for look_alike in ((0, 1, "true") if isinstance(value, bool) else (value + 0.5, str(value))):
                game, token, etag = new_example_game(client, spec)
                url = path.replace("{ruleset_id}", game["ruleset"]).replace("{game_id}", game["id"])
                reply = client.open(url, method=method.upper(), json=replaced(example, where, look_alike),
                                    headers={**auth(token), "If-Match": etag})
                assert reply.status_code == 422, (operation["operationId"], where, look_alike, reply.get_json())
                tried.append(operation["operationId"])
    assert {"create_game", "create_simulation", "evaluate"} <= set(tried), tried
