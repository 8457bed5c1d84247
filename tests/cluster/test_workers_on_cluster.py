"""Real workers on the cluster layout: bot seats (queue on the plain Redis, games on the cluster)
and a simulation (entirely on the queue Redis)."""

from tests.workers.conftest import app  # noqa: F401
from tests.workers.test_bot_seats import (  # noqa: F401
    bot_workers,
    client,
    test_a_lost_bot_job_is_queued_again_when_the_game_is_read,
    test_bot_seat_answers_a_human_by_itself,
)
