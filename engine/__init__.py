"""Parlour's pure game engines: no Discord, no asyncio, no database (DESIGN.md §1)."""
