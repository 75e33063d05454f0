"""Plots players look at, drawn with matplotlib.

Every helper follows one contract: ``plot_x(data, *, ..., ax=None, **kwargs)
-> Axes``; ``ax=None`` draws on :func:`matplotlib.pyplot.gca`; nothing calls
``show()`` or saves. Colours come from :mod:`gammonlab.style`, one per player
across boards and plots.

This module imports matplotlib; ``import gammonlab`` does not import it until a
plot is asked for (``gl.plot_board``).
"""

from __future__ import annotations

from .mpl_board import plot_board

__all__ = ["plot_board"]
