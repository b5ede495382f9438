"""A small thread-safe LRU map, for values derived from a versioned row.

The derived things the app caches (a table's folded sheet, a rendered fragment, an event's
room) are keyed by the version of what they derive from, so an entry never goes stale:
a write makes a new version and the old entry just ages out.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class LRU:
    """At most `size` entries; the least recently used one goes first."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        """The value stored under `key` (now the most recently used), or None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """Store `value` under `key`, dropping the oldest entries beyond the size."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (tests)."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
