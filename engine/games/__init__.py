"""One package per game; each exposes ``RULESET`` (found by engine.core.registry)."""
