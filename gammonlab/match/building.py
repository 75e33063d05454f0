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
    every object the collector tracks goes straight to its oldest generation
    (``gc.freeze`` then ``gc.unfreeze``, unless the program has frozen objects of its
    own): what the block built lives on, and a young collection would walk each of its
    objects once more for nothing.

    >>> import gc
    >>> with cycle_collection_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                # what the block built lives on: straight to the oldest generation, rather
                # than walked once by each younger collection on its way there
                gc.freeze()
                gc.unfreeze()
            gc.enable()
