"""Tripoli (Tripoley / Three-in-One): rules, actions, events, game, views and AI.

Spec: ``rules/tripoli.md``. Entry point: :class:`engine.tripoli.game.TripoliGame`.
"""
