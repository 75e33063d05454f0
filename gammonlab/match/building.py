"""Building a great many small objects at once: a transcript's actions and their frames."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["cycle_collection_paused"]


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Pause Python's cycle collector while the block runs, then restore it as it was.

    Reading a transcript or building its frame makes tens of thousands of small
    objects and no reference cycles; the collector, woken again and again as they
    pile up, would only walk them, for about a fifth of the time. When the block ends,
    what it built goes straight to the collector's oldest generation (``gc.freeze``
    then ``gc.unfreeze``, unless the program has frozen objects of its own): it lives
    on, and a young collection would walk each of its objects once more for nothing.

    In the oldest generation a reference cycle is freed by a full collection alone, so
    only what holds none goes there unwalked: the program's own young objects go
    through a young collection before the block (see :func:`_collect_young`), and a
    block that ends with an error (whose traceback holds the frames it was raised
    through, and they what they built) leaves what it built young, for the collector
    to walk as it walks any program's objects.

    >>> import gc
    >>> with cycle_collection_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    moves = enabled and gc.get_threshold()[0] > 0 and not gc.get_freeze_count()
    if moves:
        _collect_young()
    gc.disable()
    ended = False
    try:
        yield
        ended = True
    finally:
        if moves and ended:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


# Objects that the young collections before paused blocks moved to the oldest
# generation since its last full collection; the objects that lived through that
# collection, once counted; and the number of full collections then. The collector
# counts the first itself, but it looks at that count only when its count of young
# objects passes its threshold, which the blocks, moving what they built, set back to 0:
# a program that allocates little outside the blocks would never have a full collection.
_promoted = 0
_long_lived: int | None = None
_full_collections = gc.get_stats()[-1]["collections"]


def _collect_young() -> None:
    """A young collection of the program's objects, then a full collection where
    CPython would run one: when the objects moved to the oldest generation since the
    last pass a quarter of those that lived through it, and the allocations since
    would have woken the collector for its oldest generation."""
    global _promoted, _long_lived, _full_collections
    young = gc.get_count()[0]
    _promoted += max(0, young - gc.collect(1))
    first, second, third = gc.get_threshold()
    if _promoted <= first * second * third:
        return
    full = gc.get_stats()[-1]["collections"]
    if full != _full_collections:
        # the collector has run a full collection of its own since
        _promoted, _long_lived, _full_collections = 0, None, full
        return
    if _long_lived is None:
        _long_lived = _tracked()
    if _promoted > _long_lived // 4:
        gc.collect()
        _promoted, _long_lived = 0, _tracked()
        _full_collections = gc.get_stats()[-1]["collections"]


def _tracked() -> int:
    """How many objects the collector tracks (each moved to its oldest generation)."""
    gc.freeze()
    count = gc.get_freeze_count()
    gc.unfreeze()
    return count
