"""The one text line format of ``rulehouse serve``'s processes: the supervisor's, the API server's and the
workers' lines read alike ("03:17:14 INFO rulehouse.worker: worker 27473 ready on bots"). No imports of the
service: gunicorn's master reads it from its settings file (api/service/gunicorn_conf.py)."""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%H:%M:%S"
#: set by ``rulehouse serve`` for its children (the setting ``SERVE_QUIET``): say what a person needs, in ``FORMAT``
QUIET_ENV = "RULEHOUSE_SERVE_QUIET"


def configure_text_logging(level: str = "INFO") -> None:
    """Every log record of the process as one ``FORMAT`` line on stderr (idempotent)."""
    root = logging.getLogger()
    if any(getattr(handler.formatter, "_fmt", None) == FORMAT for handler in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    root.handlers[:] = [handler]
    root.setLevel(level)


def gunicorn_logconfig(level: str = "WARNING") -> dict:
    """gunicorn's ``logconfig_dict`` for ``FORMAT`` lines at ``level`` and above: its own and the app's
    (``rulehouse serve`` says the address itself, so gunicorn's start lines are left out)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": FORMAT, "datefmt": DATE_FORMAT}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}},
        "root": {"level": level, "handlers": ["console"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": [], "propagate": True},
            "gunicorn.access": {"level": level, "handlers": [], "propagate": True},
        },
    }
