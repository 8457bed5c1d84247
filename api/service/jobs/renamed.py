"""The dotted names jobs were queued under before the modules moved (issue 27), still importable.

RQ stores a job's function by dotted name, so a job queued or retrying across the deploy that
moved ``api.bot_seats`` to ``api.service.jobs.bots`` must still find its function. Importing
``api`` installs a finder that answers each old module name with the new module. Remove this
module (and its line in api/__init__.py) in the release after 0.1.0.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType

#: old module -> the module that now holds its job functions
RENAMED = {
    "api.bot_seats": "api.service.jobs.bots",
    "api.hints.jobs": "api.service.jobs.hints",
    "api.analysis.jobs": "api.service.jobs.analysis",
    "api.simulations.jobs": "api.service.jobs.simulations",
    "api.experiments.jobs": "api.service.jobs.experiments",
}


class _Renamed(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name: str, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in RENAMED else None

    def create_module(self, spec) -> ModuleType:
        return importlib.import_module(RENAMED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        pass  # the new module ran when it was imported


def install() -> None:
    if not any(isinstance(finder, _Renamed) for finder in sys.meta_path):
        sys.meta_path.append(_Renamed())
