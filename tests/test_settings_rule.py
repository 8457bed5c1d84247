"""Configuration is read from the environment in api/ground/config.py only (issue 27), and what it reads there
means what the modules that used to read it took it to mean."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from api.ground import config

API = Path(__file__).resolve().parents[1] / "api"
#: The one module allowed to read the environment.
CONFIG_MODULE = API / "ground" / "config.py"


def environment_reads(source: str) -> list[int]:
    """Lines of ``source`` that read the process environment. Handing it on is no read: ``{**os.environ,
    ...}`` (a child process's environment) and ``os.environ[name] = ...`` (one set for children)."""
    tree = ast.parse(source)
    handed_on: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            handed_on.update(id(value) for key, value in zip(node.keys, node.values, strict=True) if key is None)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            handed_on.add(id(node.value))
    names = ("environ", "environb", "getenv", "getenvb")
    imported = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "os"
                and any(alias.name in names for alias in node.names)]
    used = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in names
            and isinstance(node.value, ast.Name) and node.value.id == "os" and id(node) not in handed_on]
    return sorted(imported + used)


def test_no_module_of_api_but_config_reads_the_environment():
    offenders = {}
    for path in sorted(API.rglob("*.py")):
        if path == CONFIG_MODULE:
            continue
        lines = environment_reads(path.read_text())
        if lines:
            offenders[str(path.relative_to(API.parent))] = lines
    assert offenders == {}, f"read settings through api/ground/config.py instead: {offenders}"


def test_the_rule_sees_each_kind_of_read_and_lets_the_environment_be_handed_on():
    source = "\n".join([
        "import os",
        "a = os.environ.get('X')",                   # 2
        "b = os.environ['X']",                       # 3
        "c = 'X' in os.environ",                     # 4
        "d = os.getenv('X')",                        # 5
        "from os import environ",                    # 6
        "env = {'A': '1', **os.environ, 'B': '2'}",  # handed to a child
        "os.environ['PROMETHEUS_MULTIPROC_DIR'] = '/tmp/m'",  # set for children
        "e = dict(os.environ)",                      # 9
    ])
    assert environment_reads(source) == [2, 3, 4, 5, 6, 9]


def test_the_config_module_is_found_and_reads_the_environment():
    assert environment_reads(CONFIG_MODULE.read_text())


@pytest.mark.parametrize(("key", "text", "value"), [
    ("BOT_JOB_LEASE", "1", 1.0),
    ("BOT_JOB_LEASE", "", 5.0),
    ("BODY_TIMEOUT", "2.5", 2.5),
    ("SOCKET_TIMEOUT", "7", 7.0),
    ("HEADER_TIMEOUT", "3", 3),
    ("WEB_WORKERS", "4", 4),
    ("WORKER_CLASS", "gthread", "gthread"),
    ("BIND", "0.0.0.0:9000", "0.0.0.0:9000"),
    ("SIMULATION_LEASE", "3", 3),
    ("SIMULATION_LEASE", "", 10),
    ("SIMULATION_TTL", "60", 60),
    ("SIMULATION_JOB_TIMEOUT", "5", 5),
    ("SIMULATION_GAME_SECONDS", "1", 1),
    ("HOME", "/srv/rh", "/srv/rh"),
    ("HOME", "", ".rulehouse"),
    ("TEST_PAUSE", "job-taken:/tmp/m", "job-taken:/tmp/m"),
    ("TEST_PAUSE", "", None),
    ("API_KEY", "rh_x", "rh_x"),
    ("REQUIRE_API_KEYS", "yes", True),
])
def test_each_setting_that_moved_here_reads_its_old_variable_as_its_old_reader_did(monkeypatch, key, text, value):
    monkeypatch.setenv(f"RULEHOUSE_{key}", text)
    assert config.settings()[key] == value
    assert config.setting(key) == value  # the one-variable read of the hot paths agrees
    assert type(config.setting(key)) is type(value)


def test_unset_settings_take_their_old_defaults(monkeypatch):
    for key in ("BOT_JOB_LEASE", "BODY_TIMEOUT", "SOCKET_TIMEOUT", "BIND", "SIMULATION_LEASE", "HOME"):
        monkeypatch.delenv(f"RULEHOUSE_{key}", raising=False)
    assert {key: config.setting(key) for key in ("BOT_JOB_LEASE", "BODY_TIMEOUT", "SOCKET_TIMEOUT", "BIND",
                                                  "SIMULATION_LEASE", "HOME")} == {
        "BOT_JOB_LEASE": 5.0, "BODY_TIMEOUT": 10.0, "SOCKET_TIMEOUT": 30.0, "BIND": "127.0.0.1:8000",
        "SIMULATION_LEASE": 10, "HOME": ".rulehouse"}


def test_a_process_given_its_settings_keeps_them_and_names_its_redis(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("RULEHOUSE_SIMULATION_LEASE", "3")
    assert not config.names_redis()
    assert config.current()["SIMULATION_LEASE"] == 3  # no settings given: the environment, now
    given = {**config.settings(), "REDIS_URL": "redis://example.invalid:1/2"}
    monkeypatch.setattr(config, "_current", None)  # put back after the test, as a worker never does
    config.use(given)
    monkeypatch.setenv("RULEHOUSE_SIMULATION_LEASE", "4")
    assert config.current() is given
    assert config.setting("SIMULATION_LEASE") == 3  # the settings the worker started with
    assert config.names_redis()
