"""Deadlines on the cluster layout: the ``deadlines`` set on the queue Redis, the games on the cluster."""

from tests.api.test_deadlines import (  # noqa: F401
    test_a_move_in_time_cancels_the_deadline,
    test_a_seat_too_slow_to_choose_its_bullet_gets_a_random_card_and_the_game_moves_on,
    test_a_stale_deadline_does_nothing,
    test_a_worker_plays_the_default_of_an_overdue_seat,
    test_an_overdue_deadline_is_applied_when_the_game_is_read,
)
