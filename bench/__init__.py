"""Benchmarks (not tests): each ``*_bench`` module prints its figures from ``main()``."""
