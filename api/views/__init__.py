"""``GET /v1/games/{id}/views/{version}``: the table as it was at any version, for a replay."""
