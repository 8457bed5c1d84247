"""Bulk simulations on RQ workers: the spec, the lifecycle (``lifecycle``, on the chunked runs of
``api.runs``), the store of a simulation's keys (``store``) and (with Flask) the HTTP blueprint; the
RQ function is ``api.service.jobs.simulations.run_chunk``.

``spec``, ``store`` and ``lifecycle`` import no Flask and no app, so the command line and the workers
use them directly.
"""
