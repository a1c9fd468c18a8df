"""Tripoli (Tripoley / Three-in-One), spec ``rules/tripoli.md``.

Modules: ``rules`` (parameters, presets), ``actions``, ``events``, ``phases``, ``game``
(:class:`~engine.tripoli.game.TripoliGame`, the state and its transitions), ``auction``,
``pay_cards`` (phase 1), ``betting`` (phase 2 betting and pots), ``michigan`` (phase 3
leads), ``views`` (what a seat may see), ``ai`` (a simple player).
"""
