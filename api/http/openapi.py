"""Print the OpenAPI document the code generates: ``python -m api.openapi > openapi.yaml``."""

from __future__ import annotations

import sys

import yaml


def spec_dict() -> dict:
    from api.app import create_app

    app = create_app({"BOT_QUEUE": None})
    with app.app_context():
        return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def spec_yaml() -> str:
    return yaml.safe_dump(spec_dict(), sort_keys=False, allow_unicode=True, width=120)


if __name__ == "__main__":
    sys.stdout.write(spec_yaml())
