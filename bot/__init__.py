"""Parlour's runtime: everything that knows Discord or storage but no game rules (DESIGN.md §1)."""
