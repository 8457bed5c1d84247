"""Game records in the service: ``GET /v1/games/{id}/record``, forks (``POST /v1/games`` with
``fork``), the seed commitment of every new game, and ``POST /v1/rulesets/{id}/evaluate``.
The format, replay and commitment check are the engine's (``engine.records``); docs/records.md
describes them."""
