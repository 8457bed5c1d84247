"""HTTP plumbing shared by the blueprints: problem+json (``problems``, and ``play_errors``, the one place
where the game room's refusals become problems), ETags and If-Match (``etags``), CORS, operation ids,
JSON Schema, gunicorn's own errors, the client's address and the request helpers (``helpers``).

It knows Flask and the request; the game's life (api/play) does not know it.
"""
