"""What a person at a terminal sees while the AI thinks: a spinner whose words count the
seconds once the wait is more than a moment, and say what Ctrl-C does once it is long."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from unbeatable.render import Thinking

SCRIPT = Path(sys.executable).with_name("unbeatable")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_words_count_the_seconds_and_then_say_what_ctrl_c_does() -> None:
    clock = _Clock()
    thinking = Thinking(clock)
    assert thinking.text() == "thinking..."
    clock.now += Thinking.QUIET - 0.01
    assert thinking.text() == "thinking..."
    clock.now += 0.01
    assert thinking.text() == f"thinking... {int(Thinking.QUIET)} s"
    clock.now = 100.0 + 42.7
    assert thinking.text() == "thinking... 42 s (Ctrl-C: play the best move found so far)"
    assert thinking.__rich__().plain == thinking.text()


@pytest.mark.slow
def test_the_spinner_counts_seconds_while_a_long_move_is_thought_and_ctrl_c_plays() -> None:
    # 8 x 5 from the start takes the solver minutes (no opening data; 169 s once): the
    # AI moves first, the spinner is watched until it counts a few seconds, then Ctrl-C makes
    # the AI play its best move so far
    main, side = pty.openpty()
    process = subprocess.Popen(
        [str(SCRIPT), "play", "connect4:8,5", "--human", "second", "--no-book"],
        stdin=side,
        stdout=side,
        stderr=side,
        env={**os.environ, "COLUMNS": "120"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(side)
    seen = b""

    def read(until: bytes, seconds: float) -> bool:
        nonlocal seen
        deadline = time.monotonic() + seconds
        while until not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    return False
        return until in seen

    try:
        # the kernels may be built first (announced); then the count shows
        assert read(b"thinking... 3 s", 240), seen[-2000:]
        process.send_signal(signal.SIGINT)
        assert read(b"interrupted:", 60), seen[-2000:]
        assert read(b"your move (second)", 30), seen[-2000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode(errors="replace"))
    assert "Traceback" not in text
    assert re.search(r"thinking\.\.\. [23] s", text), text[-2000:]
