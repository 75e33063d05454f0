"""Board pictures: SVG for Jupyter and the web (:mod:`~gammonlab.draw.svg`), matplotlib
for PNG and PDF reports (:mod:`~gammonlab.draw.mpl_board`), the text diagram that
``str(position)`` prints (:mod:`~gammonlab.draw.ascii`), and what they share: the
shapes a diagram is made of and their SVG text (:mod:`~gammonlab.draw.shapes`), the
board's geometry (:mod:`~gammonlab.draw.geometry`) and the palette
(:mod:`~gammonlab.draw.style`).

Drawing knows boards, not the rules: it reads what a position, play or game state
shows and needs nothing above the rules' constants, so every layer may draw.
"""
