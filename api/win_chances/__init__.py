"""Win chances of a game (``GET /v1/games/{id}/win-chances``): the value model from a seat's view."""
