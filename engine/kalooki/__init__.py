"""Caribbean Kalooki (Jamaican rules, Trinidad & Tobago preset), spec ``rules/kalooki.md``.

Modules: ``rules`` (parameters, presets), ``melds`` (threes, fours, lay-offs, joker
exchanges), ``scoring`` (penalties), ``actions``, ``events``, ``views`` (what a seat may
see), ``game`` (:class:`~engine.kalooki.game.KalookiGame`, the state and its transitions),
``ai`` (a simple player).
"""
