"""A named subset of tests/api on the cluster layout: every read and write path of api/play/store.py."""

from tests.api.test_concurrency import test_racing_clients_leave_exactly_the_replay_of_accepted_actions  # noqa: F401
from tests.api.test_errors import (  # noqa: F401
    game,
    test_creator_token_cannot_act_but_can_delete,
    test_idempotency_key_reused_with_another_body_is_422,
    test_stale_if_match_is_412_with_current_version,
    test_token_of_another_game_is_401,
    test_unknown_game_is_404,
)
from tests.api.test_games import (  # noqa: F401
    test_create_answers_tokens_location_and_etag,
    test_events_are_paged_and_filtered_per_seat,
    test_repeated_idempotency_key_replays_without_applying_again,
    test_stored_action_log_replays_to_the_stored_state,
    test_stream_delivers_events_as_they_happen_and_ends_with_the_game,
    test_stream_sends_state_then_events_then_end,
    test_toy_game_played_to_the_end_over_http,
)
