import fcntl
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _default_signals() -> Iterator[None]:
    """Every test starts with Ctrl-C raising KeyboardInterrupt and children reaped normally.

    Two full-suite runs from a clean clone found the test process ignoring SIGINT (a child
    script then never heard Ctrl-C: the children inherit an ignored signal) and, in another
    run, SIGCHLD; Python's own view of the handlers did not show it, so native code set it.
    Which test leaves it is not found yet; setting both again here keeps the tests apart.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    yield


@pytest.fixture
def mpi_jobs_one_at_a_time() -> Iterator[None]:
    """The MPI tests' jobs never overlap, whichever test process runs them (``make test`` runs
    two): hydra launches, ranks killed on purpose and namespaced hosts stay out of each other's
    way. A clean-clone run once failed two of test_mpi's checks together (a killed rank's job
    ended by hydra's exit code, a host check without the launcher's words); alone they pass."""
    with open(Path(tempfile.gettempdir()) / "unbeatable-tests-mpi.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
