"""The OpenAPI document the code generates: ``python -m api.openapi > openapi.yaml`` prints it.

A package of its own above the app factory (it builds an app to read its spec), not part of api/http.
"""

from __future__ import annotations

import yaml

from api.app import create_app


def spec_dict() -> dict:
    app = create_app({"BOT_QUEUE": None})
    with app.app_context():
        return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def spec_yaml() -> str:
    return yaml.safe_dump(spec_dict(), sort_keys=False, allow_unicode=True, width=120)
