"""The games a table can host: their adapters by name (see :mod:`bot.runtime.spec`).

To add a game, write its adapter (``bot/games/<game>.py``) and list it here; the table
runtime, the components and the board plumbing need no change.
"""

from __future__ import annotations

from bot.games.kalooki import KalookiAdapter
from bot.games.tripoli import TripoliAdapter
from bot.games.troefcall import TroefcallAdapter
from bot.runtime.spec import GameAdapter

GAMES: dict[str, GameAdapter] = {
    "tripoli": TripoliAdapter(), "troefcall": TroefcallAdapter(), "kalooki": KalookiAdapter(),
}
