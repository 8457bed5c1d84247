"""Memory that levels off: a soak until every process's state cache is full, then ``--after-fill`` more seconds.

    nice -n 5 .venv/bin/python bench/memory.py                       # this checkout alone
    nice -n 5 .venv/bin/python bench/memory.py --before /tmp/before  # and an older checkout beside it
    nice -n 5 .venv/bin/python bench/memory.py --trace               # and tracemalloc: what grew

Runs bench/soak.py's service and clients (``--games`` live games, seat 0 a scripted human, the other
seats random bots) with a small state cache (``--state-cache``, the ``STATE_CACHE_SIZE`` setting) so
that it fills in minutes. It samples every process's RSS (``VmRSS`` of /proc/PID/status: the gunicorn
master and workers, each RQ worker, Redis) every ``--sample-every`` seconds, and reads each process's
caches from /metrics (``rulehouse_cache_entries`` and ``rulehouse_cache_bound``, by pid). The cache is
full once every API process and every bots worker holds its bound; ``--after-fill`` seconds later the
clients stop, and the bench prints each process's RSS at the fill and at the end, and the growth.

``--before PATH`` soaks a second checkout (e.g. ``git worktree add /tmp/before main``) at the same time,
with the same clients and settings, so both sides share the machine's load; a checkout without the
cache metrics counts as filled when this one is and it has played at least as many games.
``--trace`` starts tracemalloc in every process at the fill (bench/memtrace/sitecustomize.py; slower,
and RSS then includes the traces), snapshots it ``--trace-settle`` seconds later (so that the caches'
entries replaced after the fill are traced ones too) and at the end, and prints, per process, the
source lines whose memory grew most between the two snapshots.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from soak import Service, client_process  # noqa: E402

#: The caches whose fill starts the measured part: the state cache of the API's and the bot workers' processes.
FILLED_CACHE = "state"
_SAMPLE = re.compile(r'^rulehouse_cache_(entries|bound)\{(.*)\} ([0-9.e+]+)$', re.M)


def variety_process(base: str, every: float, stop) -> None:
    """What the soak's players never send, once every ``every`` seconds: a Hitchiker game on a board of
    its own (a human and a bot seat: the bot's move loads the board in a worker too) and a request with
    a made-up HTTP method. Each grew a per-process structure without a bound before issue 29."""
    session = requests.Session()
    board = json.loads((ROOT / "engine" / "games" / "hitchiker" / "data" / "board.json").read_text())
    number = 0
    while not stop.wait(every):
        number += 1
        custom = {**board, "cities": [{**city, "amount": 1000 + number} if i == 1 else city
                                      for i, city in enumerate(board["cities"])]}
        with contextlib.suppress(requests.RequestException):
            session.post(f"{base}/v1/games", timeout=30, json={
                "ruleset": "hitchiker", "seed": number, "options": {"board": custom},
                "seats": [{"name": "human"}, {"name": "bot", "bot": "random"}]})
            session.request(f"X{number}", f"{base}/v1/rulesets", timeout=30)


def proc_children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(name))
    return children


def descendants(pid: int) -> list[int]:
    tree, found, todo = proc_children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def kind_of(pid: int, parents: dict[int, int]) -> str | None:
    """``api-master``, ``api``, ``worker[bots]``... or ``redis``; None for anything else (the clients)."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return None
    line = " ".join(words)
    if "gunicorn" in line:
        return "api" if parents.get(pid) in gunicorn_pids(parents) else "api-master"
    if "redis-server" in line:
        return "redis"
    if " worker" in line:
        queues = words[words.index("--queues") + 1] if "--queues" in words else "all"
        return f"worker[{queues}]"
    return None


def gunicorn_pids(parents: dict[int, int]) -> set[int]:
    masters = set()
    for pid, parent in parents.items():
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if "gunicorn" in line and "gunicorn" not in _cmdline(parent):
            masters.add(pid)
    return masters


def _cmdline(pid: int | None) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


class Side:
    """One checkout under soak: its service, its clients, its samples."""

    def __init__(self, name: str, root: Path, args, trace_dir: Path | None) -> None:
        self.name, self.root, self.trace_dir = name, root, trace_dir
        # The --variety games stay live (their human never moves): no live-games quota may refuse the soak's.
        env = {"RULEHOUSE_STATE_CACHE_SIZE": str(args.state_cache), "RULEHOUSE_TIMELINE_GAMES": str(args.timelines),
               "RULEHOUSE_QUOTAS": json.dumps({"live_games": 10**6})}
        if trace_dir is not None:  # the hook after the checkout's own root, which it must not shadow
            env.update(RULEHOUSE_MEMTRACE_DIR=str(trace_dir),
                       PYTHONPATH=f"{root}{os.pathsep}{ROOT / 'bench' / 'memtrace'}")
        self.service = Service(args, root=root, extra_env=env)
        self.stop = multiprocessing.Event()
        self.made = multiprocessing.Value("l", args.games)
        self.results = multiprocessing.Queue()
        share = [args.games // args.clients + (i < args.games % args.clients) for i in range(args.clients)]
        self.clients = [multiprocessing.Process(
            target=client_process, args=(self.service.base, n, share[n], self.stop, self.results, self.made))
            for n in range(args.clients)]
        if args.variety:
            self.clients.append(multiprocessing.Process(target=variety_process,
                                                        args=(self.service.base, args.variety, self.stop)))
        self.samples: list[tuple[float, dict[int, tuple[str, int]]]] = []
        self.filled_at: float | None = None
        self.filled_games = 0
        self.has_cache_metrics = False
        self.settled = False

    def processes(self) -> dict[int, str]:
        pids = descendants(self.service.process.pid)
        parents = {}
        for pid in pids:
            with contextlib.suppress(OSError):
                parents[pid] = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        return {pid: kind for pid in pids if (kind := kind_of(pid, parents))}

    def sample(self, at: float) -> None:
        found = {}
        for pid, kind in self.processes().items():
            size = rss_kib(pid)
            if size is not None:
                found[pid] = (kind, size)
        self.samples.append((at, found))

    def caches(self) -> dict[tuple[str, str], dict[str, float]]:
        """(pid, cache) -> {"entries": n, "bound": n}, from the API's /metrics (every process's files)."""
        try:
            text = requests.get(f"{self.service.base}/metrics", timeout=30).text
        except requests.RequestException:
            return {}
        found: dict[tuple[str, str], dict[str, float]] = {}
        for what, labels, value in _SAMPLE.findall(text):
            named = dict(re.findall(r'(\w+)="([^"]*)"', labels))
            found.setdefault((named.get("pid", "?"), named.get("cache", "?")), {})[what] = float(value)
        return found

    def cache_full(self, pids: dict[int, str]) -> bool:
        """Every API process's and every bots worker's state cache holds its bound."""
        caches = self.caches()
        self.has_cache_metrics = self.has_cache_metrics or bool(caches)
        wanted = [pid for pid, kind in pids.items() if kind == "api" or kind == "worker[bots]"]
        return bool(wanted) and all(
            caches.get((str(pid), FILLED_CACHE), {}).get("entries", -1) >= caches.get(
                (str(pid), FILLED_CACHE), {}).get("bound", float("inf")) for pid in wanted)

    def snapshot(self, tag: str) -> None:
        if self.trace_dir is not None:
            (self.trace_dir / f"take-{tag}").touch()


def growth_report(side: Side, after_fill_from: float) -> list[str]:
    """Per process: RSS at the first sample after the fill, at the end, and the growth."""
    lines = []
    first = next((found for at, found in side.samples if at >= after_fill_from), None)
    last = side.samples[-1][1]
    if first is None:
        return [f"  {side.name}: no sample after the fill"]
    worst = 0.0
    for pid in sorted(first, key=lambda p: (first[p][0], p)):
        kind, start = first[pid]
        if pid not in last:
            lines.append(f"  {side.name} {kind:<22} pid {pid:>7}: {start / 1024:7.1f} MiB at the fill, gone at the end")
            continue
        end = last[pid][1]
        change = (end - start) / start * 100
        if kind != "redis":
            worst = max(worst, change)
        lines.append(f"  {side.name} {kind:<22} pid {pid:>7}: {start / 1024:7.1f} -> {end / 1024:7.1f} MiB "
                     f"({change:+.1f}%)")
    lines.append(f"  {side.name}: largest growth of an API or worker process after the fill: {worst:+.1f}%")
    return lines


def trace_report(side: Side, top: int) -> list[str]:
    if side.trace_dir is None:
        return []
    lines = [f"tracemalloc, {side.name}: what grew from {side.filled_at:.0f} + settle s to the end, by source line"]
    kinds = dict((pid, kind) for _, found in side.samples for pid, (kind, _) in found.items())
    for fill in sorted(side.trace_dir.glob("*-mid.snap")):
        pid = int(fill.name.split("-")[0])
        end = side.trace_dir / f"{pid}-end.snap"
        if pid not in kinds or not end.exists():
            continue
        before, after = tracemalloc.Snapshot.load(str(fill)), tracemalloc.Snapshot.load(str(end))
        stats = after.compare_to(before, "lineno")
        total = sum(stat.size_diff for stat in stats)
        lines.append(f"  {kinds[pid]} pid {pid}: traced memory {total / 2**20:+.2f} MiB")
        for stat in stats[:top]:
            frame = stat.traceback[0]
            lines.append(f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
                         f"{_short(frame.filename)}:{frame.lineno}")
        grown = after.compare_to(before, "traceback")[:3]
        for stat in grown:
            lines.append(f"    biggest: {stat.size_diff / 1024:+.1f} KiB, allocated at:")
            for frame in list(stat.traceback)[-8:]:
                lines.append(f"      {_short(frame.filename)}:{frame.lineno}")
    return lines


def _short(filename: str) -> str:
    for marker in ("site-packages/", "/api/", "/engine/", "/lib/python3"):
        if marker in filename:
            return marker.strip("/") + "/" + filename.split(marker, 1)[1] if marker != "site-packages/" else \
                filename.split(marker, 1)[1]
    return filename


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="an older checkout to soak beside this one")
    parser.add_argument("--games", type=int, default=100, help="live games at any time, on each side")
    parser.add_argument("--clients", type=int, default=2, help="client processes on each side")
    parser.add_argument("--state-cache", type=int, default=128, help="STATE_CACHE_SIZE for the run")
    parser.add_argument("--timelines", type=int, default=8, help="TIMELINE_GAMES for the run")
    parser.add_argument("--after-fill", type=float, default=600.0, help="seconds to run once the caches are full")
    parser.add_argument("--max-fill", type=float, default=1200.0, help="give up if not full after this long")
    parser.add_argument("--sample-every", type=float, default=20.0)
    parser.add_argument("--variety", type=float, default=0.0,
                        help="seconds between a custom-board Hitchiker game and a made-up method (0: none)")
    parser.add_argument("--trace", action="store_true", help="tracemalloc in every process; print what grew")
    parser.add_argument("--trace-settle", type=float, default=90.0,
                        help="with --trace: seconds from the fill to the first snapshot")
    parser.add_argument("--top", type=int, default=12, help="with --trace: source lines shown per process")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--bot-workers", type=int, default=2)
    args = parser.parse_args()
    args.cluster = False

    checkouts = [("after", ROOT), *([("before", args.before.resolve())] if args.before else [])]
    sides = []
    try:
        for name, root in checkouts:
            trace_dir = Path(tempfile.mkdtemp(prefix=f"rulehouse-memtrace-{name}-")) if args.trace else None
            sides.append(Side(name, root, args, trace_dir))
        began = time.time()
        for side in sides:
            for client in side.clients:
                client.start()
        ours = sides[0]
        end_at = None
        while end_at is None or time.time() < end_at:
            now = time.time() - began
            for side in sides:
                side.sample(now)
            if ours.filled_at is None and ours.cache_full(ours.processes()):
                ours.filled_at, ours.filled_games = now, ours.made.value
                print(f"{ours.name}: every state cache full at {now:.0f} s, {ours.filled_games} games created",
                      flush=True)
                ours.snapshot("start")
            for side in sides[1:]:
                if side.filled_at is None and ours.filled_at is not None and (
                        side.cache_full(side.processes())
                        or (not side.has_cache_metrics and side.made.value >= ours.filled_games)):
                        side.filled_at, side.filled_games = now, side.made.value
                        print(f"{side.name}: filled at {now:.0f} s, {side.filled_games} games created", flush=True)
                        side.snapshot("start")
            for side in sides:
                if side.filled_at is not None and not side.settled and now >= side.filled_at + args.trace_settle:
                    side.settled = True
                    side.snapshot("mid")
            if end_at is None and all(side.filled_at is not None for side in sides):
                end_at = time.time() + args.after_fill
            if end_at is None and now > args.max_fill:
                raise SystemExit(f"the caches did not fill in {args.max_fill:.0f} s")
            time.sleep(args.sample_every)
        for side in sides:
            side.snapshot("end")
            side.sample(time.time() - began)
        caches = {side.name: side.caches() for side in sides}
        if args.trace:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not all(
                    len(list(side.trace_dir.glob("*-end.snap"))) >= len(list(side.trace_dir.glob("*-mid.snap")))
                    for side in sides):
                time.sleep(1)
            time.sleep(3)
        for side in sides:
            side.stop.set()
        reports = {side.name: [side.results.get(timeout=300) for _ in range(args.clients)] for side in sides}
        for side in sides:
            for client in side.clients:
                client.join(timeout=30)
    finally:
        for side in sides:
            side.stop.set()
            side.service.stop()

    print(f"layout: serve --web-workers {args.web_workers} --threads {args.threads} --bot-workers {args.bot_workers} "
          f"--workers {args.workers}; STATE_CACHE_SIZE {args.state_cache}, TIMELINE_GAMES {args.timelines}; "
          f"{args.games} live games and {args.clients} client processes a side; {args.after_fill:.0f} s after the fill"
          + (f"; a custom Hitchiker board and a made-up method every {args.variety:g} s" if args.variety else ""))
    for side in sides:
        errors: dict[str, int] = {}
        for report in reports[side.name]:
            for kind, count in report["errors"].items():
                errors[kind] = errors.get(kind, 0) + count
        accepted = sum(len(report["accepted"]) for report in reports[side.name])
        print(f"{side.name} ({side.root}): filled at {side.filled_at:.0f} s after {side.filled_games} games; "
              f"{side.made.value} games created in all, {accepted} human actions accepted, errors "
              f"{sum(errors.values())} {errors or ''}")
    print("RSS MiB over time (s: each process by kind and pid):")
    for side in sides:
        for at, found in [*side.samples[:: max(1, len(side.samples) // 12)], side.samples[-1]]:
            listed = ", ".join(f"{kind} {size / 1024:.1f}" for _, (kind, size) in sorted(found.items(),
                                                                                        key=lambda item: item[1][0]))
            print(f"  {side.name} {at:>6.0f}: {listed}")
    print("RSS growth after the fill (first sample after it -> the end):")
    for side in sides:
        for line in growth_report(side, side.filled_at):
            print(line)
    print("caches at the end (per process: entries / bound):")
    for side in sides:
        if not caches[side.name]:
            print(f"  {side.name}: no cache metrics (an older checkout)")
        for (pid, cache), figures in sorted(caches[side.name].items()):
            print(f"  {side.name} pid {pid:>7} {cache:<24} {figures.get('entries', float('nan')):>8.0f} / "
                  f"{figures.get('bound', float('nan')):.0f}")
    for side in sides:
        for line in trace_report(side, args.top):
            print(line)


if __name__ == "__main__":
    main()
