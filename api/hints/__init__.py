"""Hints: a search bot's advice on one seat's decision (``GET /v1/games/{id}/hint``), for games
created with ``hints: true``. ``api.hints.computing`` computes them on the search workers and
imports no Flask; ``routes`` is the blueprint. docs/http-api.md ("Hints") describes the endpoint.
"""
