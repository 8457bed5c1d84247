"""Rulehouse's HTTP service, workers and command line (built on ``engine``)."""
