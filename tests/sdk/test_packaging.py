"""rulehouse-sdk stands alone: it imports only the standard library and requests."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

SDK = Path(__file__).resolve().parents[2] / "sdk"


def imported_top_level_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules.add(node.module.split(".")[0])
    return modules


#: the optional asyncio client, the one module that may import httpx (the extra ``async``)
ASYNC_MODULE = "aio.py"


def test_the_package_imports_only_the_standard_library_and_requests():
    allowed = set(sys.stdlib_module_names) | {"requests", "rulehouse_sdk"}
    for path in (SDK / "rulehouse_sdk").glob("*.py"):
        extra = {"httpx"} if path.name == ASYNC_MODULE else set()
        assert imported_top_level_modules(path) <= allowed | extra, path.name
    assert "aio" not in (SDK / "rulehouse_sdk" / "__init__.py").read_text()  # importing the SDK needs no httpx


#: the MCP server's modules (the extra ``mcp``): only ``server`` imports the ``mcp`` package (and its pydantic)
MCP_MODULES = {"server.py": {"mcp", "pydantic"}}


def test_the_mcp_subpackage_imports_mcp_only_in_its_server_module():
    allowed = set(sys.stdlib_module_names) | {"requests", "rulehouse_sdk"}
    paths = sorted((SDK / "rulehouse_sdk" / "mcp").glob("*.py"))
    assert {path.name for path in paths} >= {"__init__.py", "cli.py", "server.py"}
    for path in paths:
        assert imported_top_level_modules(path) <= allowed | MCP_MODULES.get(path.name, set()), path.name


def test_the_distribution_depends_on_requests_only():
    project = tomllib.loads((SDK / "pyproject.toml").read_text())["project"]
    assert project["name"] == "rulehouse-sdk"
    assert [requirement.split(">")[0].split("=")[0] for requirement in project["dependencies"]] == ["requests"]
    assert [requirement.split(">")[0] for requirement in project["optional-dependencies"]["async"]] == ["httpx"]
    assert [requirement.split(">")[0] for requirement in project["optional-dependencies"]["mcp"]] == ["mcp"]
    assert project["scripts"] == {"rulehouse-mcp": "rulehouse_sdk.mcp.cli:main"}


def test_licenses_are_spdx_strings_that_the_build_backend_reads_without_warning():
    # A `license = {text = ...}` table makes setuptools 77+ warn on every install (`make test` printed it).
    for pyproject in (SDK / "pyproject.toml", SDK.parent / "pyproject.toml"):
        config = tomllib.loads(pyproject.read_text())
        license_ = config["project"].get("license")
        assert license_ is None or isinstance(license_, str), (pyproject, license_)
        if license_ is not None:
            backend = next(r for r in config["build-system"]["requires"] if r.startswith("setuptools"))
            assert ">=77" in backend, (pyproject, backend)  # the first setuptools to read SPDX expressions
