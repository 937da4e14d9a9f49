"""Benchmarks run by ``ludolog bench``."""
