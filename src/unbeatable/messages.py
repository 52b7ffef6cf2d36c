"""Messages about bad input, for people: long texts cut, so that an error about a 5,000-character
position still fits on a line and still ends with its reason. The command line, the web API
and the UCI engine print every error through :func:`cut_echoes`; the library's errors carry
the whole text (:class:`~unbeatable.game.GameError`), and the front ends cut it."""

from __future__ import annotations

import re

__all__ = ["ECHO_LIMIT", "MESSAGE_LIMIT", "cut", "cut_echoes"]


#: A bad text is echoed in messages cut to this many characters.
ECHO_LIMIT = 80

#: The longest message about bad input that :func:`cut_echoes` leaves whole.
MESSAGE_LIMIT = 4 * ECHO_LIMIT


def cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to its first ``limit`` characters and ``...`` when it is longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def cut_echoes(message: str) -> str:
    """``message`` with its long echoes cut, so that an error about a long text still fits on
    a line and keeps its reason: every quoted text (``'...'`` or ``"..."``, as ``repr`` writes
    it) longer than :data:`ECHO_LIMIT` characters is cut to that many and ``...`` inside its
    quotes (never inside an escape such as ``\\x00``); every other run of more than
    :data:`ECHO_LIMIT` characters without a space (a board picture) the same way, without
    quotes; and what is still longer than :data:`MESSAGE_LIMIT` loses its middle (`` ... ``),
    so that it still begins with what is wrong and ends with where (``(move 10 of ...)``).

    A quote opens only at the start or after a character that is not a letter or digit (an
    apostrophe, as in ``game's``, opens nothing) and closes at the next unescaped quote of
    the same kind; a quote that never closes is an ordinary character.
    """
    pieces: list[str] = []
    plain = 0  # where the text not yet copied starts
    index = 0
    while index < len(message):
        char = message[index]
        if char in "'\"" and (index == 0 or not message[index - 1].isalnum()):
            end = _closing_quote(message, index)
            if end is not None:
                pieces.append(_cut_words(message[plain:index]))
                pieces.append(char + _cut_quoted(message[index + 1 : end]) + char)
                index = plain = end + 1
                continue
        index += 1
    pieces.append(_cut_words(message[plain:]))
    return _cut_middle("".join(pieces), MESSAGE_LIMIT)


def _closing_quote(message: str, start: int) -> int | None:
    """The index of the quote that closes the one at ``start`` (skipping escaped ones), or
    None."""
    quote = message[start]
    index = start + 1
    while index < len(message):
        if message[index] == "\\":
            index += 2
        elif message[index] == quote:
            return index
        else:
            index += 1
    return None


#: The characters of an escape that ``repr`` writes, by the letter after the backslash (2
#: for the others: ``\\n``, ``\\\\``, ``\\'``).
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


def _cut_quoted(body: str) -> str:
    """A quoted text's inside cut to :data:`ECHO_LIMIT` characters and ``...``, never inside
    an escape (``\\n``, ``\\x00``)."""
    if len(body) <= ECHO_LIMIT:
        return body
    index = 0
    while index < len(body):
        step = _ESCAPE_LENGTH.get(body[index + 1 : index + 2], 2) if body[index] == "\\" else 1
        if index + step > ECHO_LIMIT:
            return body[:index] + "..."
        index += step
    return body


_LONG_WORD = re.compile(r"\S{" + str(ECHO_LIMIT + 1) + ",}")


def _cut_words(text: str) -> str:
    """``text`` with every run of more than :data:`ECHO_LIMIT` characters without a space
    cut to that many and ``...``."""
    return _LONG_WORD.sub(lambda found: cut(found.group()), text)


def _cut_middle(text: str, limit: int) -> str:
    """``text`` itself when it has at most ``limit`` characters, else its first and last
    characters around `` ... ``, ``limit`` characters in all, cut at spaces where there are
    some near the cuts."""
    if len(text) <= limit:
        return text
    room = limit - len(" ... ")
    head, tail = text[: room // 2], text[len(text) - (room - room // 2) :]
    near = ECHO_LIMIT // 4
    space = head.rfind(" ", len(head) - near)
    head = head[:space] if space > 0 else head
    space = tail.find(" ", 0, near)
    tail = tail[space + 1 :] if space >= 0 else tail
    return f"{head.rstrip()} ... {tail.lstrip()}"
