"""Game analysis of finished games (``GET /v1/games/{id}/analysis``): ``api.analysis.computing``
computes it on the analysis workers and imports no Flask; ``routes`` is the blueprint.
docs/http-api.md ("Game analysis") describes the endpoint, docs/analysis.md what the analysis says.
"""
