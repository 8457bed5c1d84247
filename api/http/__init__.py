"""HTTP plumbing shared by the blueprints: problem+json, CORS, operation ids, the OpenAPI document,
JSON Schema, server errors, the client's address and the request helpers (``helpers``).

It knows Flask and the request; the game's life (api/play) does not know it.
"""
