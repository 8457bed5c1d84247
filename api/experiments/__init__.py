"""Experiments: several configurations of one game compared on the same seeds, on the simulation
workers (``/v1/experiments``). The statistics live in ``engine.experiments``."""
