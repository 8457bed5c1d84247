"""Every function an RQ worker runs, in one place: the queue each job goes to and the dotted name it is
queued under (RQ stores the name, so a job outlives the process that queued it).

- ``bots.play_bot_turn`` (queues ``bots``, ``search``): one bot move of one game version;
  ``bots.sweep`` re-queues the moves whose jobs died (the worker loop).
- ``hints.compute_hint`` (``search``): a hint of one seat at one version (a few lines calling
  ``api.hints.computing``, where the hint's lifecycle lives).
- ``analysis.compute_analysis`` (``analysis``): a finished game's analysis (likewise, ``api.analysis.computing``).
- ``simulations.run_chunk``, ``experiments.run_chunk`` (``simulations``): a chunk of games, a few lines
  that call their room's lifecycle (``api/simulations/lifecycle.py``, ``api/experiments/lifecycle.py``,
  on the chunked runs of ``api/runs``); the rooms' stores queue them by these dotted names.
- ``api.apps.webhooks.deliver`` (``webhooks``): one delivery attempt; it stays beside the app's
  webhooks, whose key layout it shares.
- The deadline sweep is ``api.play.timeouts.sweep`` (the worker loop, not a queued job).

``renamed`` keeps the names of jobs queued before these modules moved importable for one release.
"""
