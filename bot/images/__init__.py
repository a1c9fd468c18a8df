"""Pictures of the tables: the board and each private hand, drawn with Pillow (issue 14).

:mod:`bot.images.cards` draws the pieces (as sprites in the one palette of
:mod:`bot.images.palette`), :mod:`bot.images.picture` describes a picture
(and draws a hand), one module per game lays out its board (:mod:`bot.images.tripoli`,
:mod:`bot.images.troefcall`, :mod:`bot.images.kalooki`) and :mod:`bot.images.cache` keeps
the PNGs by what they show, drawing them off the event loop.
"""
