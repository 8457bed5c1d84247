"""The web table: a lobby, a table per game, replays and simulations, drawn in the browser.

The pages are plain HTML with JavaScript modules (no build step) and call only the public
HTTP API, exactly as any other app would; seat tokens stay in the browser's storage.
"""
