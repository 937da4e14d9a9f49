"""The one in-process cache of things that never change once computed (a state at a seq, a branch's timeline).

Least recently used entries go first once it holds ``size``. Safe to share between threads (gunicorn's
threads, gevent's greenlets, two pages asking at once): every read and write holds its lock, and nothing
slow runs under it. Kept here rather than taken from ``cachetools``: both users need the lock around it
anyway, and a scan of the entries (:meth:`LRU.items`); that is all this is.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``size`` entries; a read or a write makes an entry the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The entry of ``key``, or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``, dropping the least recently used entries past the size."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def items(self) -> list[tuple[K, V]]:
        """A copy of the entries, least recently used first (the cache may change meanwhile)."""
        with self._lock:
            return list(self._entries.items())

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
