"""Slash-command adapters; every non-underscore module here is loaded as an extension."""
