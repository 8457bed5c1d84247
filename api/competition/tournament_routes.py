"""``/v1/tournaments``: an app's tournaments (docs/competition.md, "Tournaments"). Another app's
tournament ids are unknown here (404); seat tokens are shown to the owning app's secret key only."""

from __future__ import annotations

import secrets

from flask import g
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.apps.access import may
from api.competition import tournaments
from api.competition.schemas import CreateTournamentSchema, TournamentListSchema, TournamentSchema
from api.competition.tournament_store import tournament_store
from api.ground.times import iso_time
from api.http.helpers import json_response, store
from api.http.problems import ApiProblem, problem_response, validation_problem
from engine.competition import plan_rounds_default, tournament_problems
from engine.core.errors import InvalidOptions
from engine.core.registry import UnknownRuleset, get_ruleset

blp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments",
                description="Round robin, Swiss and duplicate tournaments the service runs for the app.")

EXAMPLE = {"ruleset": "cash-n-guns", "format": "swiss", "table_size": 4, "rounds": 3,
           "entrants": ["ann", "bob", "cy", "dee", *(f"bot:heuristic#{n}" for n in range(1, 9))]}


def _spec(body: dict) -> tournaments.Spec:
    try:
        ruleset = get_ruleset(body["ruleset"])
    except UnknownRuleset as unknown:
        raise validation_problem({"ruleset": [unknown.message]}, unknown.message) from None
    entrants = body["entrants"]
    problems = tournament_problems(body["format"], entrants, body["table_size"], body["rounds"],
                                   ruleset.min_players, ruleset.max_players)
    bots = ruleset.bot_names()
    unknown = {str(n): [f"unknown entrant: no bot {tournaments.bot_of(entrant)!r} in {ruleset.id} (its bots: "
                        f"{bots})"] for n, entrant in enumerate(entrants)
               if tournaments.bot_of(entrant) is not None and tournaments.bot_of(entrant) not in bots}
    if unknown:
        problems["entrants"] = unknown
    if problems:
        raise validation_problem(problems, "the tournament cannot be played as asked")
    try:
        ruleset.new_game(body["table_size"], body["options"], 0)
    except InvalidOptions as error:
        raise validation_problem({"options": dict(error.fields)}, error.message) from None
    rounds = body["rounds"] or plan_rounds_default(body["format"], len(entrants), body["table_size"])
    return tournaments.Spec(ruleset.id, ruleset.rules_version, body["format"], body["table_size"], tuple(entrants),
                            rounds, body["seed"] if body["seed"] is not None else secrets.randbits(63),
                            body["decision_timeout"], body["options"], body["rated"])



def _body(tournament: dict, *, with_tokens: bool) -> dict:
    spec = tournament["spec"]
    played = []
    for number, ran in enumerate(tournament["rounds"]):
        ended = ran["finished"] is not None
        played.append({"round": number, "started": iso_time(ran["started"]),
                       "finished": iso_time(ran["finished"]) if ended else None,
                       "tables": [{"game": table["game"], "entrants": table["entrants"], "ranks": table["ranks"],
                                   "seed": table["seed"] if ended else None,
                                   "tokens": table["tokens"] if with_tokens else None}
                                  for table in ran["tables"]]})
    return {"id": tournament["id"], **{key: value for key, value in spec.to_dict().items() if key != "seed"},
            "status": tournament["status"], "reason": tournament["reason"], "round": tournament["round"],
            "created": iso_time(tournament["created"]), "updated": iso_time(tournament["updated"]),
            "standings": tournaments.current_standings(tournament), "played": played}


def _secret_key() -> bool:
    """Seat tokens are the app's to hand out: a secret key that may create games (the ``games``
    scope; not a narrower key, such as one that only manages webhooks), or no key in development."""
    app = g.get("app")
    return app is not None and not app.publishable and may(app, "games")


@blp.route("")
class Tournaments(MethodView):
    @blp.arguments(CreateTournamentSchema, example=EXAMPLE)
    @blp.response(201, TournamentSchema, headers={"Location": {"schema": {"type": "string"}}})
    @blp.alt_response(**problem_response(403, "Over a quota of the app (`quota-exceeded`): a round's tables must "
                                         "fit its `live_games`, and its first round's searching bots one move each "
                                         "at its bound in its `search_work_per_day`."))
    @blp.alt_response(**problem_response(422, "Unknown ruleset or entrant (a bot the ruleset lacks), a table size "
                                         "outside the ruleset's player range, entrants that do not divide into "
                                         "tables, rounds out of range, invalid options."))
    def post(self, body: dict):
        """Create a tournament

        The service creates the first round's games at once and each later round's when the
        round before has ended (docs/competition.md). The answer, like `GET`, holds each
        person's seat token for the app's backend; webhooks `tournament.round_started` and
        `tournament.finished` say when to look.
        """
        spec = _spec(body)
        tournament_id, app_id = tournaments.new_id(), ownership.current_app_id()
        # Its tables count in the app's live games while it runs: taken at once, atomically. The search work
        # of its bots is admitted round by round as each starts (api/competition/round_room.py).
        # A rated one's entrants hold their places in rated_players from now on, with the tables.
        with ownership.holding("tournaments", tournament_id, weight=len(spec.entrants) // spec.table_size,
                               rated=spec.entrants if spec.rated else ()):
            tournaments.create(store(), app_id, spec, tournament_id)
        created = tournaments.load(store(), tournament_id)
        return json_response(_body(created, with_tokens=True), 201,
                             headers={"Location": f"/v1/tournaments/{tournament_id}"})

    @blp.response(200, TournamentListSchema)
    @blp.alt_response(**problem_response(403, "The app key lacks the `games` scope (a publishable key never has "
                                         "it): the list names unlisted games' tournaments."))
    def get(self):
        """List the app's tournaments

        Newest first, at most 100: id, ruleset, format, status and rounds.
        """
        ids = tournament_store(store()).app_tournaments(ownership.current_app_id(), 100)
        found = [tournament for tournament in (tournaments.load(store(), tid) for tid in ids) if tournament]
        return json_response({"tournaments": [
            {"id": t["id"], "ruleset": t["spec"].ruleset, "format": t["spec"].format, "status": t["status"],
             "round": t["round"], "rounds": t["spec"].rounds, "created": iso_time(t["created"])} for t in found]})


@blp.route("/<tournament_id>")
class Tournament(MethodView):
    @blp.response(200, TournamentSchema)
    @blp.alt_response(**problem_response(404, "No such tournament in this app."))
    def get(self, tournament_id: str):
        """Read a tournament

        Its settings, standings after the rounds that have ended, and every round's tables: the
        games, who sits where, the places once the round has ended. Seat tokens (`tokens`) only
        to the app's secret key.
        """
        return json_response(_body(_own(tournament_id), with_tokens=_secret_key()))

    @blp.doc(operationId="cancel_tournament")
    @blp.response(200, TournamentSchema)
    @blp.alt_response(**problem_response(404, "No such tournament in this app."))
    @blp.alt_response(**problem_response(503, "A round of it was being started for longer than the cancellation "
                                         "waits: ask again."))
    def delete(self, tournament_id: str):
        """Cancel a tournament

        The tournament ends `cancelled` (`reason: app_cancelled`, `tournament.finished` sent): its
        games that had not finished end as `aborted` (no more moves, unrated, kept with their logs
        and records as finished games are), its finished games stay as they are (rated ones
        rated), and its standings are those of the rounds that ended. It is kept, and read, as any
        tournament. A tournament that has ended already (finished or cancelled) is left as it is.
        """
        _own(tournament_id)
        status = tournaments.cancel(store(), tournament_id)
        if status is None:
            raise ApiProblem("service-unavailable", "a round of this tournament is being started: ask again",
                             headers={"Retry-After": "1"})
        return json_response(_body(_own(tournament_id), with_tokens=_secret_key()))


def _own(tournament_id: str) -> dict:
    """The calling app's tournament ``tournament_id``; 404 for none (and for another app's)."""
    tournament = tournaments.load(store(), tournament_id)
    if tournament is None or tournament["app"] != ownership.current_app_id():
        raise ApiProblem("not-found", f"this app has no tournament {tournament_id!r}")
    return tournament
