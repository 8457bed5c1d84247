"""``/v1/rulesets``: the games the service referees, built from the engine's registry."""

from __future__ import annotations

import functools

from flask.views import MethodView
from flask_smorest import Blueprint

from api.http import json_response
from api.jsonschema import json_schema
from api.problems import ApiProblem, problem_response
from api.rulesets.schemas import RulesetListSchema, RulesetSchema
from engine.core.registry import all_rulesets

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="The games the service referees.")


SUMMARY_KEYS = ("id", "title", "rules_version", "min_players", "max_players", "bots", "action_types", "rules_doc")


@functools.cache
def summary(ruleset_id: str) -> dict:
    metadata = all_rulesets()[ruleset_id].metadata()
    body = {key: metadata[key] for key in SUMMARY_KEYS}
    body["links"] = {"self": f"/v1/rulesets/{ruleset_id}", "rules_doc": metadata["rules_doc"]}
    return body


@functools.cache
def describe(ruleset_id: str) -> dict:
    ruleset = all_rulesets()[ruleset_id]
    metadata = ruleset.metadata()
    return {
        **summary(ruleset_id),
        "options_schema": json_schema(ruleset.options_schema),
        "action_schemas": {name: json_schema(schema) for name, schema in sorted(ruleset.action_schemas.items())},
        "data": {key: value for key, value in metadata.items() if key not in SUMMARY_KEYS},
    }


@blp.route("")
class Rulesets(MethodView):
    @blp.response(200, RulesetListSchema)
    def get(self):
        """List the rulesets

        Every ruleset the engine has registered: id, title, player range, bots and
        action types. The details (options and action schemas) are under each id.
        """
        return json_response({"rulesets": [summary(ruleset_id) for ruleset_id in all_rulesets()]})


@blp.route("/<ruleset_id>")
class Ruleset(MethodView):
    @blp.response(200, RulesetSchema)
    @blp.alt_response(**problem_response(404, "No such ruleset."))
    def get(self, ruleset_id: str):
        """Describe a ruleset

        Metadata, player range, bots, the JSON Schema of the game options and of every
        action body, and a link to the rules as implemented.
        """
        if ruleset_id not in all_rulesets():
            raise ApiProblem("not-found", f"no ruleset {ruleset_id!r}; see GET /v1/rulesets")
        return json_response(describe(ruleset_id))
