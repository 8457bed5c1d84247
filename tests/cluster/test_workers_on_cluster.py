"""Real workers on the cluster layout: bot seats (queue on the plain Redis, games on the cluster),
searches (hints and search bots: hint keys on the cluster, search work counters on the queue
Redis) and a simulation (entirely on the queue Redis)."""

from tests.workers.conftest import app  # noqa: F401
from tests.workers.test_bot_seats import (  # noqa: F401
    bot_workers,
    client,
    test_a_lost_bot_job_is_queued_again_when_the_game_is_read,
    test_bot_seat_answers_a_human_by_itself,
)
from tests.workers.test_search import (  # noqa: F401
    test_a_search_worker_computes_a_hint_once_from_the_seats_view,
    test_search_bots_play_on_their_own_queue_and_quick_bots_never_wait_for_them,
)
