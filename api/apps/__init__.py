"""Apps: API keys, ownership, rate limits, quotas and webhooks.

"App" here is a tenant of the service, never the Flask app (``api.app``, ``current_app``): an app is
a third-party program that uses Rulehouse (a phone game, a Discord bot). It
authenticates with an app key in the ``X-Api-Key`` header; seat tokens keep travelling in
``Authorization: Bearer``. ``keys`` stores apps and their keys, ``access`` decides what a
request's key may do, ``limits`` holds the rate limits and the quotas of what an app holds,
``accounting`` admits and charges the work it has done (simulations, searches), ``webhooks``
tells an app's URLs what happened, and ``routes`` is the HTTP face of all of it.
"""
