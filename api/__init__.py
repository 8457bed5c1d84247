"""Rulehouse's HTTP service, workers and command line (built on ``engine``).

``app`` is the Flask application factory; ``play`` a game's life (no Flask); ``http`` the HTTP
plumbing; ``service`` the processes and the jobs they run; ``openapi`` prints the spec; every other
package is one capability (its blueprint, schemas and rules). docs/architecture.md says what each
may import.
"""

from api.service.jobs import renamed

# Jobs queued before the modules moved name them by their old modules: kept for one release.
renamed.install()
