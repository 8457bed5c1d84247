"""Do one app's slow webhook receivers slow down another app's bots?

Starts ``rulehouse serve`` (the code at ``--root``, default this checkout; its own embedded Redis,
app keys required) and measures app B's bot reply times: B plays seat 0 of a two-seat
``monopoly-cars2`` game against the ``heuristic`` bot, and a reply is the time from B's move
being accepted to B's next decision being there after the bot moved. Twice: alone, then while
app A plays moves of its own game with ``--webhooks`` webhooks (``decision.waiting``) pointed at
a tar-pit receiver on loopback that answers one byte every ``--every`` seconds and never finishes.

    .venv/bin/python bench/webhooks.py
    .venv/bin/python bench/webhooks.py --root /tmp/main-checkout      # the code before the change
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis as redis_lib
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "sdk"))

from rulehouse_sdk import Client, RulehouseError  # noqa: E402

from api.apps.app_store import AppKeys  # noqa: E402
from tests.processes import free_port, wait_for  # noqa: E402
from tests.workers.tarpit import TarPit  # noqa: E402

RULESET = "monopoly-cars2"


def start_serve(root: Path, home: Path) -> tuple[subprocess.Popen, str, str]:
    """``rulehouse serve`` of the code at ``root`` with its defaults (workers and all); its process,
    base URL and Redis URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(root), "RULEHOUSE_HOME": str(home), "RULEHOUSE_REQUIRE_API_KEYS": "1",
           "RULEHOUSE_WEBHOOK_ALLOW_PRIVATE": "1", "RULEHOUSE_LOG_LEVEL": "WARNING"}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port),
                                "--web-workers", "1"],
                               cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        assert process.poll() is None, "serve exited"
        try:
            return requests.get(f"{base}/v1/ready", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    wait_for(ready, timeout=120, interval=0.3)
    return process, base, (home / "redis.url").read_text()


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def bot_replies(base: str, key: str, replies: int, seed: int) -> list[float]:
    """Seconds from each of B's accepted moves to its next decision, where the bot moved in between."""
    host = Client(base, api_key=key, timeout=(5, 120), retries=0)
    times: list[float] = []
    rng = random.Random(seed)
    while len(times) < replies:
        created = host.create_game(RULESET, [{"name": "Bea"}, {"bot": "heuristic"}], seed=seed + len(times))
        player = host.with_token(created["seats"][0]["token"])
        moved_at, moved_to = None, None
        for turn in player.my_turns(created["id"]):
            if moved_at is not None and turn.version > moved_to:
                times.append(time.monotonic() - moved_at)
                if len(times) >= replies:
                    break
            try:
                result = player.act(turn, rng.choice(turn["options"]))
            except RulehouseError:
                moved_at = None
                continue
            moved_at, moved_to = time.monotonic(), result["version"]
    return times


class Mover(threading.Thread):
    """App A playing both seats of its own games, a move every ``pause`` seconds: each move queues a
    ``decision.waiting`` delivery to each of A's webhooks."""

    def __init__(self, base: str, key: str, pause: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.host = Client(base, api_key=key, timeout=(5, 30), retries=0)
        self.pause = pause
        self.moves = 0
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            self.play()
        except Exception as error:  # say why A stopped, rather than measure nothing beside it
            print(f"app A stopped: {error!r}", file=sys.stderr)
            raise

    def play(self) -> None:
        rng = random.Random(1)
        while not self.halt.is_set():
            created = self.host.create_game(RULESET, [{"name": "A1"}, {"name": "A2"}], seed=rng.randrange(10**6))
            players = [self.host.with_token(seat["token"]) for seat in created["seats"]]
            while not self.halt.is_set():
                pending = [(p, d) for p in players for d in p.get_decisions(created["id"])["decisions"]]
                if not pending:
                    break
                player, decision = pending[0]
                try:
                    player.submit_action(created["id"], rng.choice(decision["options"]),
                                         if_match=f'"d:{decision["id"]}"')
                    self.moves += 1
                except RulehouseError:
                    pass
                self.halt.wait(self.pause)


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"{name:<34} {len(times):>3} replies  median {statistics.median(times):7.3f} s  p90 {p90:7.3f} s"
            f"  max {ordered[-1]:7.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose `rulehouse serve` is measured")
    parser.add_argument("--replies", type=int, default=15, help="bot replies measured in each phase")
    parser.add_argument("--webhooks", type=int, default=20, help="app A's webhooks, all at the tar pit")
    parser.add_argument("--every", type=float, default=3.0, help="the tar pit's seconds per byte")
    parser.add_argument("--warm-up", type=int, default=30, help="A's moves before B's replies are measured beside it")
    args = parser.parse_args()

    pit = TarPit(every=args.every)
    with tempfile.TemporaryDirectory() as home:
        process, base, redis_url = start_serve(args.root.resolve(), Path(home))
        try:
            keys = AppKeys(redis_lib.Redis.from_url(redis_url, decode_responses=True))
            _, slow_key = keys.create_app("A: tar-pit receivers")
            _, quick_key = keys.create_app("B: plays a bot")
            for _ in range(args.webhooks):
                reply = requests.post(f"{base}/v1/webhooks", json={"url": pit.url, "events": ["decision.waiting"]},
                                      headers={"X-Api-Key": slow_key}, timeout=10)
                assert reply.status_code == 201, reply.text
            alone = bot_replies(base, quick_key, args.replies, 100)
            mover = Mover(base, slow_key)
            mover.start()
            # A's deliveries are in the pit, and a few hundred more are queued behind them.
            wait_for(lambda: pit.open >= 1 and mover.moves >= args.warm_up, timeout=120)
            beside = bot_replies(base, quick_key, args.replies, 200)
            mover.halt.set()
            mover.join(30)
            print(f"code: {args.root.resolve()}; tar pit: 1 byte / {args.every:g} s; A: {args.webhooks} webhooks,"
                  f" {mover.moves} moves; connections in the pit at the end: {pit.open}, the longest held"
                  f" {max(pit.held, default=0):.1f} s")
            print(summary("B's heuristic bot, alone", alone))
            print(summary("B's heuristic bot, beside A", beside))
        finally:
            stop(process)
            pit.close()


if __name__ == "__main__":
    main()
