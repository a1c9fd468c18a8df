"""Tripoli (Tripoley / Three-in-One), spec ``rules/tripoli.md``.

Modules: ``rules`` (parameters, presets), ``actions``, ``events``, ``phases``, ``game``
(:class:`~engine.tripoli.game.TripoliGame`, the state, its transitions and the views it
builds), ``auction``, ``pay_cards`` (phase 1), ``betting`` (phase 2 betting and pots),
``michigan`` (phase 3 leads), ``views`` (the view models: what a seat may see), ``ai`` (a
simple player).
"""
