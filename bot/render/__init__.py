"""Pure rendering: table state and engine views -> ``discord.Embed`` and ``discord.ui.View``.

Renderers never see more than their viewer may: the board gets the public view, a hand
view gets that seat's view. Nothing here performs I/O.
"""
