"""Troefcall, the Surinamese partnership trick-taking game, spec ``rules/troefcall.md``.

Modules: ``rules`` (parameters), ``seating`` (the partnership draw and the public jack
search), ``tricks`` (following suit, trick winners), ``scoring`` (hand results, rotation),
``actions``, ``events``, ``phases``, ``views`` (what a seat may see), ``game``
(:class:`~engine.troefcall.game.TroefcallGame`, the state and its transitions), ``ai``
(a partner that plays like a decent human).
"""
