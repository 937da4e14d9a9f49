"""The composition root: the app factory, the command line and the process supervisor.

Everything else sits in layers whose imports only run downward (docs/ARCHITECTURE.md); this package
sits above them all and is the one place that knows every layer, so nothing imports it.
"""
