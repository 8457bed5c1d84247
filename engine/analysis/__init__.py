"""Game analysis of finished games: win chances by version, costly moves, key moments and the
luck-skill split (``engine.analysis.game``; docs/analysis.md, "Game analysis")."""
