"""How many of a person's moves are rejected as stale (412) while three bots play beside them?

    .venv/bin/python bench/stale_rejections.py [--games 20] [--parallel 4] [--workers 2]

Starts an embedded Redis, the API in a thread and ``rulehouse worker`` processes, then
plays ``--games`` Cash 'n Guns games of ``examples/cash_n_guns_with_bots.py`` (one scripted
person answering each decision 50-300 ms after reading it, three heuristic bots) twice:
with the strict version precondition (``If-Match: "<version>"``, what clients sent before
decision ids; a 412 is re-read and resent) and with the decision precondition
(``If-Match: "d:<decision id>"``). Prints the person's moves and 412s for each.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "sdk"))


def load_example():
    path = ROOT / "examples" / "cash_n_guns_with_bots.py"
    spec = importlib.util.spec_from_file_location("cash_n_guns_with_bots", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=4, help="games played at once")
    parser.add_argument("--workers", type=int, default=2, help="rulehouse worker processes")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()

    from werkzeug.serving import make_server

    from api.app import create_app
    from api.service.embedded_redis import EmbeddedRedis
    from tests.processes import Workers

    example = load_example()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    with tempfile.TemporaryDirectory() as data:
        redis_server = EmbeddedRedis(Path(data), persist=False).start()
        os.environ["REDIS_URL"] = redis_server.url
        server = make_server("127.0.0.1", 0, create_app({"REDIS_URL": redis_server.url}), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base_url = f"http://127.0.0.1:{server.server_port}"
        workers = Workers(redis_server.url)
        workers.start(args.workers)
        try:
            for strict in (True, False):
                started = time.monotonic()
                seeds = range(args.seed, args.seed + args.games)
                with ThreadPoolExecutor(args.parallel) as pool:
                    futures = [pool.submit(example.main, base_url, seed=seed, strict=strict, quiet=True)
                               for seed in seeds]
                    games = [future.result() for future in futures]
                moves = sum(game["moves"] for game in games)
                stale = sum(game["stale"] for game in games)
                label = 'strict version If-Match "<version>":' if strict else 'decision If-Match "d:<id>":        '
                print(f"{label} {args.games} games: {moves} moves by the person, {stale} rejected as stale (412) "
                      f"[{time.monotonic() - started:.0f} s]", flush=True)
        finally:
            workers.stop()
            server.shutdown()
            redis_server.stop()


if __name__ == "__main__":
    main()
