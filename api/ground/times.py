"""Times as the service writes them: ISO 8601 in UTC with a ``Z`` (no Flask here: workers write them too).

One function; each public field keeps the precision it has always had (tests/api/test_times.py):
``"auto"`` for the games', seats', chats', competitions' and webhooks' times (seconds, plus
microseconds when the time has a fraction), ``"milliseconds"`` for the simulations' and experiments'
(api/runs/lifecycle.py), ``"seconds"`` for the ``deadline.near`` webhook's ``deadline``.
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso_time(timestamp: float, timespec: str = "auto") -> str:
    """``timestamp`` (Unix seconds) as ISO 8601 UTC, ``timespec`` as ``datetime.isoformat`` takes it."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec=timespec).replace("+00:00", "Z")
