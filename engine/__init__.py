"""Rulehouse's pure rules engine: no I/O, no Flask, no Redis."""
