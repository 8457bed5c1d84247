"""Webhooks of games that live on the cluster, delivered by real workers."""

from tests.workers.test_webhooks import (  # noqa: F401
    receivers,
    service,
    test_a_finished_game_is_delivered_once_signed_and_only_to_its_own_app,
)
