"""``python -m api.openapi > openapi.yaml``: the documented command; the document is made in api/http/openapi.py."""
