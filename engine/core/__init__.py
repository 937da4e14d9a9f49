"""The game-independent core: protocol, events, errors, fold/check loop, registry."""
