"""``/v1/rulesets``: the games the service referees, built from the engine's registry."""

from __future__ import annotations

import functools
from pathlib import Path

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.http.etags import if_none_match
from api.http.helpers import json_response, ruleset_at_path
from api.http.jsonschema import json_schema
from api.http.problems import ApiProblem, problem_response
from api.play.event_types import event_types
from api.play.labels import labels, labels_etag
from api.rulesets.schemas import RulesetLabelsSchema, RulesetListSchema, RulesetSchema
from engine.core.registry import all_rulesets

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="The games the service referees.")


SUMMARY_KEYS = ("id", "title", "rules_version", "min_players", "max_players", "bots", "action_types")
#: docs/rules, linked into this package so that an installed service has the rules documents too
RULES_DOCS = Path(__file__).with_name("rules")


def rules_doc_url(ruleset_id: str) -> str:
    return f"/v1/rulesets/{ruleset_id}/rules"


@functools.cache
def summary(ruleset_id: str) -> dict:
    metadata = all_rulesets()[ruleset_id].metadata()
    body = {key: metadata[key] for key in SUMMARY_KEYS}
    body["rules_doc"] = rules_doc_url(ruleset_id)
    body["links"] = {"self": f"/v1/rulesets/{ruleset_id}", "rules_doc": rules_doc_url(ruleset_id),
                     "labels": f"/v1/rulesets/{ruleset_id}/labels"}
    return body


@functools.cache
def describe(ruleset_id: str) -> dict:
    ruleset = all_rulesets()[ruleset_id]
    return {
        **summary(ruleset_id),
        "options_schema": json_schema(ruleset.options_schema),
        "action_schemas": {name: json_schema(schema) for name, schema in sorted(ruleset.action_schemas.items())},
        "data": ruleset.default_data(),
        "event_types": event_types(ruleset),
        "end_reasons": list(ruleset.end_reasons),
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
        ruleset_at_path(ruleset_id)
        return json_response(describe(ruleset_id))


@functools.cache
def served_labels(ruleset_id: str) -> tuple[dict, str]:
    body = labels(all_rulesets()[ruleset_id])
    return body, labels_etag(body)


@blp.route("/<ruleset_id>/labels")
class Labels(MethodView):
    @blp.doc(operationId="get_labels")
    @blp.response(200, RulesetLabelsSchema, headers={"ETag": {
        "description": "Names these labels: send it as `If-None-Match` to get a 304 while they are the same.",
        "schema": {"type": "string"}}})
    @blp.alt_response(304, description="The labels named by `If-None-Match` are still the ones served.")
    @blp.alt_response(**problem_response(404, "No such ruleset."))
    def get(self, ruleset_id: str):
        """The words for a ruleset's codes

        Sentence templates for every event type (the service's own too), end reason, decision kind
        and action of the ruleset, and the names of its cards, payment reasons, parties and bots, so
        that a client shows words, not codes: the web pages read them, and the SDK's `get_labels`.
        A template is text with `{field}` or `{field|formatter:argument}` holes filled from the event or
        action body, `[...]` parts shown only when their fields are there, and `{"case": field, ...}`
        choices (docs/http-api.md, "Labels", gives the grammar and every formatter).
        """
        ruleset_at_path(ruleset_id)
        body, etag = served_labels(ruleset_id)
        headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
        if if_none_match(request.headers.get("If-None-Match"), etag):
            return Response(status=304, headers=headers)
        return json_response(body, headers=headers)


@blp.route("/<ruleset_id>/rules")
class RulesDoc(MethodView):
    @blp.doc(responses={"200": {"description": "The rules document.",
                                "content": {"text/markdown": {"schema": {"type": "string"}}}}})
    @blp.alt_response(**problem_response(404, "No such ruleset, or it has no rules document."))
    def get(self, ruleset_id: str):
        """The rules as implemented

        The ruleset's rules document in Markdown: every reading of the rulebook, space by
        space and card by card, its house-rule options and its reason codes.
        """
        ruleset_at_path(ruleset_id)
        path = RULES_DOCS / Path(all_rulesets()[ruleset_id].metadata()["rules_doc"]).name
        if not path.is_file():
            raise ApiProblem("not-found", f"{ruleset_id} has no rules document")
        return Response(path.read_text(encoding="utf-8"), mimetype="text/markdown")
