"""The shapes of the API's requests and answers, as ``TypedDict``s generated from its spec.

    from rulehouse_sdk.types import Game, Decisions, Simulation, StreamLine

Every method of ``Client`` returns one of these (a plain ``dict`` at run time, typed for your
editor and type checker).
"""

from rulehouse_sdk._generated import *  # noqa: F403  (the generated module's __all__)
from rulehouse_sdk._generated import __all__ as __all__
