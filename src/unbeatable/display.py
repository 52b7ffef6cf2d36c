"""How the library's objects show themselves in Jupyter, without the objects importing their
pictures.

The objects live low in the layers (a :class:`~unbeatable.game.State` in the protocol, a
:class:`~unbeatable.search.SearchResult` in the search) and the pictures high
(:mod:`unbeatable.drawing`, which draws states, trees and timelines). So the drawing module
registers its functions here when it is imported (the first name taken from ``unbeatable``
imports it), and the objects' ``_repr_svg_`` and ``_repr_html_`` ask for them by name: with
nothing registered they answer None, and Jupyter falls back to the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "show"]

_DRAWERS: dict[str, Callable[[Any], str | None]] = {}


def register(kind: str, drawer: Callable[[Any], str | None]) -> None:
    """Draw objects of ``kind`` (``state``, ``tree``, ``result``, ``timeline``) with
    ``drawer``."""
    _DRAWERS[kind] = drawer


def show(kind: str, thing: Any) -> str | None:
    """``thing`` drawn by the drawer registered for ``kind``, or None."""
    drawer = _DRAWERS.get(kind)
    return None if drawer is None else drawer(thing)
