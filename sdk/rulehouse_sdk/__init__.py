"""Python client for the Rulehouse HTTP API.

    from rulehouse_sdk import Client
    client = Client("http://127.0.0.1:8000")
    game = client.create_game("monopoly-cars2", [{"name": "Ann"}, {"name": "Bot", "bot": "heuristic"}])
"""

from rulehouse_sdk import errors, webhooks
from rulehouse_sdk._generated import OPERATIONS, Operations
from rulehouse_sdk.client import Client, Turn, decision_tag
from rulehouse_sdk.errors import (
    BadRequest,
    ConnectionFailed,
    Forbidden,
    IdempotencyKeyReused,
    IllegalAction,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    PreconditionRequired,
    QuotaExceeded,
    RateLimited,
    RulehouseError,
    RulesVersionGone,
    SeatConflict,
    ServerError,
    ServiceUnavailable,
    SimulationFailed,
    StaleVersion,
    Unauthorized,
    WaitTimeout,
)

__all__ = [
    "OPERATIONS",
    "BadRequest",
    "Client",
    "ConnectionFailed",
    "Forbidden",
    "IdempotencyKeyReused",
    "IllegalAction",
    "InvalidRequest",
    "MethodNotAllowed",
    "NotFound",
    "Operations",
    "PreconditionRequired",
    "QuotaExceeded",
    "RateLimited",
    "RulehouseError",
    "RulesVersionGone",
    "SeatConflict",
    "ServerError",
    "ServiceUnavailable",
    "SimulationFailed",
    "StaleVersion",
    "Turn",
    "Unauthorized",
    "WaitTimeout",
    "decision_tag",
    "errors",
    "webhooks",
]
