"""Apps on the cluster layout: keys, rate limits and quotas on the queue Redis, their games on the cluster."""

from tests.api.conftest import keyed_app, keyed_client, keys  # noqa: F401
from tests.api.test_apps import (  # noqa: F401
    client,
    test_live_game_quota,
    test_only_the_owning_app_manages_its_games_and_simulations,
    test_rate_limit_answers_429_with_retry_after_per_app,
)
