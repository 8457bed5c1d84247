"""The composition root of the apps' quotas: what the rooms above the apps tell them of the things that
hold their hold sets (``api.apps.quotas.Census``). The apps room imports none of those rooms (they
import it); the app factory builds this once, on its game store."""

from __future__ import annotations

from api.apps import quotas
from api.apps.quotas import LIVE_EXPERIMENTS, LIVE_GAMES, QUEUED_CHUNKS, Census
from api.competition import tournaments
from api.competition.rated_players import RatedPlayers
from api.experiments import spec as experiment_spec
from api.experiments.store import ExperimentStore
from api.play.store import GameStore
from api.simulations import spec as simulation_spec
from api.simulations.store import SimulationStore


def census(store: GameStore) -> Census:
    experiments = store.beside(ExperimentStore)
    return Census(
        lives={
            (LIVE_GAMES, ""): quotas.game_lives(store),
            (LIVE_GAMES, "tournament"): tournaments.quota_lives(store),
            (QUEUED_CHUNKS, "sim"): quotas.run_lives(store.beside(SimulationStore), simulation_spec.chunks_left),
            (QUEUED_CHUNKS, "exp"): quotas.run_lives(experiments, experiment_spec.chunks_left),
            (LIVE_EXPERIMENTS, ""): quotas.run_lives(experiments),
        },
        rated_players=store.beside(RatedPlayers),
        # The experiments in flight are a bound of the service, not a quota an app may change.
        bounds={LIVE_EXPERIMENTS: experiment_spec.MAX_EXPERIMENTS_IN_FLIGHT},
    )
