"""Every operation of the spec gets an ``operationId``, derived in this one place.

A generator names its methods after them (``create_game``, ``get_decisions``...), so a new
endpoint gets a good name without anyone remembering to give it one. The name is
``<verb>_<resource>``: the verb comes from the HTTP method (``GET`` of a collection is
``list``), the resource from the view class (``Games`` -> ``game`` after ``create``). A view
whose convention reads badly names itself with ``@blp.doc(operationId="submit_action")``.
"""

from __future__ import annotations

import re

from apispec import BasePlugin

VERBS = {"get": "get", "post": "create", "put": "replace", "patch": "update", "delete": "delete"}


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def derived_operation_id(method: str, view_name: str, path: str) -> str:
    """`GET /v1/games` of `Games` -> `list_games`, `POST` -> `create_game`; `GET` of `Game` -> `get_game`."""
    resource = snake(view_name)
    collection = resource.endswith("s") and not path.rstrip("/").endswith("}")
    if method == "get":
        return f"list_{resource}" if collection else f"get_{resource}"
    if collection:
        resource = resource[:-1]
    return f"{VERBS.get(method, method)}_{resource}"


class OperationIdPlugin(BasePlugin):
    """apispec plugin: fills in the ``operationId`` of each operation that has none."""

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs) -> None:
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        view_name = rule.endpoint.rsplit(".", 1)[-1]
        for method, operation in operations.items():
            if method in VERBS and not operation.get("operationId"):
                operation["operationId"] = derived_operation_id(method, view_name, path or rule.rule)
