"""Bots that play any ruleset through the contract."""
