"""States on the wire: a pickler that writes each frozen slotted dataclass as its class and
its fields' values, for the parts, rounds and summaries of the partitioned exploration that
cross processes (engine/partition.py, checking/explore_dask.py).

Python pickles a frozen slotted dataclass through `dataclasses`' own `__getstate__`, which
lists the class's fields anew for every object, and loads it by listing them again. Measured
on the 1,024 states of level 31 of `bench/scaling.py: wide(12)` (path conditions, stores,
programs, models): 1.07 s to dump and 0.42 s to load that way; 0.08 s and 0.14 s field by
field with each class's names read once. Sharing is kept as pickle keeps it (its memo): a
subterm or a program shared by many states is written once. Loading makes each object without
its `__init__` or `__post_init__`, as `pickle` does: the fields, stored hashes included, come
back as they were written.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
from typing import Any

FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each class written so far (or loaded), in order."""


def made(cls: type, values: tuple[Any, ...]) -> Any:
    """The object of class `cls` with these field values (the loader of `dumps`)."""
    names = FIELDS.get(cls)
    if names is None:
        names = FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    obj = object.__new__(cls)
    for name, value in zip(names, values):
        object.__setattr__(obj, name, value)
    return obj


class _Pickler(pickle.Pickler):
    """`pickle.Pickler`, writing frozen slotted dataclasses field by field."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        names = FIELDS.get(cls)
        if names is None:
            if getattr(getattr(cls, "__getstate__", None), "__name__",
                       "") != "_dataclass_getstate":
                return NotImplemented  # not a frozen slotted dataclass: as pickle does
            names = FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
        return made, (cls, tuple([getattr(obj, name) for name in names]))


def dumps(x: Any) -> bytes:
    """`x` pickled, its frozen slotted dataclasses field by field."""
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(x)
    return out.getvalue()


def loads(data: bytes) -> Any:
    """What `dumps` wrote."""
    return pickle.loads(data)
