"""The solver's bounded caches (z3backend.py): plain data, no z3."""

from __future__ import annotations

from typing import Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Cache(Generic[K, V]):
    """A bounded map: two generations of at most `size` entries; a hit in the old one is
    promoted, and when the young one fills up the old one is dropped."""

    __slots__ = ("size", "young", "old")

    def __init__(self, size: int) -> None:
        self.size = size
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        value = self.young.get(key)
        if value is not None:
            return value
        value = self.old.get(key)
        if value is not None:
            self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self.young) >= self.size:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def __contains__(self, key: object) -> bool:
        return key in self.young or key in self.old
