"""The game-neutral table runtime (DESIGN.md §7): one table per channel, for every game.

A game plugs in through its :class:`~bot.runtime.spec.GameAdapter` (listed in
:data:`bot.games.GAMES`), which declares the game's :class:`~bot.runtime.spec.GameSpec`
(seats, seating, stakes, joins and substitutes) and maps the engine to the table: the
runtime reads that declaration and never names a game.
"""
