"""The API fixtures (app, client) for these tests too."""

from tests.api.conftest import app, client  # noqa: F401
