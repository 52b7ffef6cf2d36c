"""Running code with numba's compiler off (``NUMBA_DISABLE_JIT=1``), in a fresh interpreter: the
Connect Four kernels as plain Python, so that their tests reach every line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_without_jit(code: str) -> str:
    """What ``code`` prints, run with this checkout's sources and numba off; it must succeed."""
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
