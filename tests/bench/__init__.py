"""Tests of the bench scripts, and a loader for them (bench/ is scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(script: str) -> ModuleType:
    """``bench/<script>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(f"bench_{script}", BENCH / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    # Registered, as an import would: a dataclass of the script looks its module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
