"""Simulations in the cluster layout: wholly on the queue Redis beside their RQ jobs."""

from tests.workers.test_http import client, test_post_answers_202_with_location_and_the_workers_finish_it  # noqa: F401
