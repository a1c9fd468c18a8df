"""Rules shared by every table that plays the same options.

The engines' rules are frozen models, so one object serves every table (and the game it
plays) with the same options: a thousand tables of a preset hold its rules once, not twice
each (issue 15: memory per table).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

RULES_KEPT = 256
"""Distinct option sets whose rules stay built (the least recently used go first)."""


def shared_rules(make: Callable[..., R]) -> Callable[..., R]:
    """``make`` (an engine's ``make_rules``), returning the object built before for the same
    arguments (values of different types are different arguments).

    Arguments that cannot be hashed (options saved in an unexpected form) build their rules
    each time. Whatever ``make`` raises is raised, and nothing is kept of it.
    """
    cached = functools.lru_cache(maxsize=RULES_KEPT, typed=True)(make)

    @functools.wraps(make)
    def rules(*args: Any, **kwargs: Any) -> R:
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return make(*args, **kwargs)
        return cached(*args, **kwargs)

    return rules
