"""Experiments: several configurations of one game compared on the same seeds, on the simulation
workers (``/v1/experiments``). The statistics live in ``engine.experiments``; the lifecycle
(``lifecycle``, on the chunked runs of ``api.runs``) and the store of an experiment's keys (``store``)
here, Flask-free; the RQ function is ``api.service.jobs.experiments.run_chunk``."""
