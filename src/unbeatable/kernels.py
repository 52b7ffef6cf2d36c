"""The compiled kernel groups (Connect Four's solver, the chess engine): whether numba's cache
holds them, a word to the user while they are built, and building them on purpose.

A game with numba kernels describes them as a :class:`KernelGroup` (its package's directory,
its kernel modules, about how long a build takes and how many kernels it writes) and registers
it with the function that loads them all (:func:`register`); its loader then says
``with building(GROUP):`` around the loading, or calls :func:`watch` before the kernels are
first called (kernels compiled lazily, on their first call). From then on:

- when numba's on-disk cache holds none of the group's kernels (the first run after an
  install, or after a change of their sources), or fewer than the last complete load left,
  one line goes to stderr at once, before numba is even imported (``building the Connect Four
  solver once, about 8 s; later runs start at once``), and in a terminal a live line counts
  the kernels built and the seconds;
- when the cache holds them, nothing is said;
- whatever the guess from the cache's files, every kernel numba does compile is seen (numba's
  ``numba:compile`` event, sent only when a kernel is compiled rather than loaded), so a build
  that was not foreseen (a cache of another numba, a kernel that gained a signature, a cache
  filled in part) is said too, at its first kernel.

:func:`warm` builds (or loads) a group on purpose: ``unbeatable warm``, ``make play`` and the web
server's warming call it. What is said goes through a :class:`Notice` (:func:`set_notice`): the
default writes to stderr; a front end may put its own.

This module imports nothing of the package (games import it) and imports numba only once a
group is being built or watched.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = [
    "SOURCES_STAMP",
    "KernelGroup",
    "Notice",
    "StderrNotice",
    "building",
    "cache_dir",
    "cached_kernels",
    "drop_stale_cache",
    "groups",
    "is_cold",
    "is_stale",
    "register",
    "remember",
    "set_notice",
    "source_digest",
    "warm",
    "watch",
]


@dataclass(frozen=True)
class KernelGroup:
    """A game's compiled kernels, as numba caches them."""

    #: the game's name (``connect4``, ``chess``): what ``unbeatable warm`` takes
    name: str
    #: what the user is told is being built (``the Connect Four solver``)
    title: str
    #: the package directory that holds the kernel modules (numba caches by source file)
    directory: Path
    #: the kernel modules' file names (``_negamax.py``, ...)
    sources: tuple[str, ...]
    #: about how many seconds a build takes on a quiet machine (the CPU time measured)
    seconds: float
    #: how many compiled kernels (numba overloads, ``.nbc`` files) a build writes: the live
    #: line's total
    kernels: int

    def estimate(self) -> float:
        """About how many seconds a build takes now: :attr:`seconds`, times how much busier
        than one process per core the machine is (its load average)."""
        try:
            busy = os.getloadavg()[0] / (os.cpu_count() or 1)
        except OSError:
            busy = 1.0
        return self.seconds * max(1.0, busy)

    def describe(self) -> str:
        """The line said when a build starts."""
        return (
            f"building {self.title} once, about {self.estimate():.0f} s; "
            "later runs start at once"
        )


def cache_dir(group: KernelGroup) -> Path:
    """Where numba keeps the group's cache, by numba's own rules (its cache locators):
    ``NUMBA_CACHE_DIR`` if set, else ``__pycache__`` beside the sources where it can write,
    else the user's cache directory."""
    directory = os.path.abspath(group.directory)
    subpath = f"{os.path.basename(directory)}_{hashlib.sha1(directory.encode()).hexdigest()}"
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen) / subpath
    in_tree = Path(directory) / "__pycache__"
    if os.access(in_tree if in_tree.is_dir() else directory, os.W_OK):
        return in_tree
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base) / "numba" / subpath


def cached_kernels(group: KernelGroup) -> int:
    """How many of the group's compiled kernels numba's cache holds (``.nbc`` files)."""
    stems = tuple(f"{Path(name).stem}." for name in group.sources)
    try:
        names = os.listdir(cache_dir(group))
    except OSError:
        return 0
    return sum(1 for name in names if name.endswith(".nbc") and name.startswith(stems))


def source_digest(package: Path, sources: tuple[str, ...]) -> str:
    """A digest of the kernel sources' names and contents (``sources``, in ``package``)."""
    h = hashlib.sha256()
    for name in sources:
        h.update(name.encode())
        h.update((package / name).read_bytes())
    return h.hexdigest()


#: The file in ``__pycache__`` that holds the digest of the sources its kernels came from.
SOURCES_STAMP = "kernels.sha256"


def is_stale(package: Path, sources: tuple[str, ...]) -> bool:
    """Whether :func:`drop_stale_cache` would drop the cache in ``package/__pycache__``: it was
    not made from the current ``sources`` (or nobody said which), and it is ours to look after
    (no ``NUMBA_CACHE_DIR``, a writable tree)."""
    return _stale_digest(package, sources) is not None


def _stale_digest(package: Path, sources: tuple[str, ...]) -> str | None:
    """The current sources' digest when the cache beside them is stale (see :func:`is_stale`),
    else None."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    cache = package / "__pycache__"
    if not os.access(cache if cache.is_dir() else package, os.W_OK):
        return None
    want = source_digest(package, sources)
    try:
        return None if (cache / SOURCES_STAMP).read_text() == want else want
    except OSError:
        return want  # no stamp yet: whatever is cached is of unknown sources


def drop_stale_cache(package: Path, sources: tuple[str, ...]) -> bool:
    """Delete the cached kernels in ``package/__pycache__`` unless they were made from the
    current ``sources`` (by :data:`SOURCES_STAMP`); return True when the cache was dropped.

    Numba checks a cached kernel only against the file that defines it: a kernel with another
    module's kernel compiled into it stays cached when only that other module changes. Only the
    cache beside the sources is looked after; with ``NUMBA_CACHE_DIR`` set, or a read-only
    install, nothing is done."""
    want = _stale_digest(package, sources)
    if want is None:
        return False
    cache = package / "__pycache__"
    try:
        cache.mkdir(exist_ok=True)
        for cached in cache.glob("*.nb[ic]"):
            cached.unlink(missing_ok=True)
        # and what the last complete load left (:func:`remember`): a count of the old sources'
        # kernels, which a partial load of the new ones (an analysis builds no perft) never
        # reaches, so that every later start would say a build is coming
        for stamp in cache.glob(_stamp_name("*")):
            stamp.unlink(missing_ok=True)
        fresh = cache / f"{SOURCES_STAMP}.{os.getpid()}"
        fresh.write_text(want)
        # atomic: a process starting beside this one reads all or none
        fresh.replace(cache / SOURCES_STAMP)
    except OSError:
        return False  # not writable here: numba cannot cache here either
    return True


def _stamp_name(group_name: str) -> str:
    return f"unbeatable-{group_name}.kernels"


def _stamp(group: KernelGroup) -> Path:
    return cache_dir(group) / _stamp_name(group.name)


def is_cold(group: KernelGroup) -> bool:
    """Whether loading the group would build kernels, as far as the cache's files tell: none
    cached, or fewer than the last complete load here left (:func:`remember`). Cheap: no
    numba. A cache partly filled by a load that did not complete is taken for warm: a kernel
    then built is said at its first compile. A cache of other sources (the package changed
    since: :func:`is_stale`) is cold too: loading the group drops it first."""
    if is_stale(group.directory, group.sources):
        return True
    expected = 1
    with suppress(OSError, ValueError):
        expected = max(1, int(_stamp(group).read_text()))
    return cached_kernels(group) < expected


def remember(group: KernelGroup) -> None:
    """After a complete load of the group: how many kernels the cache holds now."""
    count = cached_kernels(group)
    if count:
        with suppress(OSError):  # a cache we cannot write: numba could not either
            _stamp(group).write_text(str(count))


class Notice:
    """What the user is told about builds; the default is :class:`StderrNotice`. Every method
    may be called from any thread."""

    def started(self, group: KernelGroup) -> None:
        """A build of ``group`` has started (said once per group and process)."""

    def progress(self, group: KernelGroup, built: int, seconds: float) -> None:
        """``built`` kernels built so far, ``seconds`` since the build started (called about
        five times a second while the build goes on)."""

    def finished(self, group: KernelGroup, built: int, seconds: float) -> None:
        """The build has ended (or paused: kernels compiled lazily, on their first call)."""


class StderrNotice(Notice):
    """One line on ``stream`` when a build starts; in a terminal, a live line of the kernels
    built and the seconds, erased when the build ends."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._live = False

    @property
    def stream(self) -> IO[str]:
        return self._stream or sys.stderr

    def _terminal(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (AttributeError, ValueError, OSError):
            pass  # nowhere to say it: the build goes on

    def started(self, group: KernelGroup) -> None:
        with self._lock:
            self._write(group.describe() + "\n")

    def progress(self, group: KernelGroup, built: int, seconds: float) -> None:
        if not self._terminal():
            return
        done = min(built, group.kernels)
        width = 24
        filled = width * done // max(group.kernels, 1)
        bar = "#" * filled + "." * (width - filled)
        with self._lock:
            self._live = True
            self._write(f"\r  [{bar}] {done}/{group.kernels} kernels, {seconds:.1f} s\033[K")

    def finished(self, group: KernelGroup, built: int, seconds: float) -> None:
        with self._lock:
            if self._live:
                self._live = False
                self._write("\r\033[K")


_NOTICE: Notice = StderrNotice()


def set_notice(notice: Notice) -> Notice:
    """Say what builds do through ``notice`` from now on; return the one it replaces."""
    global _NOTICE
    previous, _NOTICE = _NOTICE, notice
    return previous


class _Build:
    """One group's build in this process: the notice said, the kernels counted, the live
    line ticking."""

    def __init__(self, group: KernelGroup) -> None:
        self.group = group
        self.start = time.perf_counter()
        self.built = 0
        self.active = 0  # builds in progress: a ``building`` block, or a kernel compiling
        self.last = self.start
        self.ticker: threading.Thread | None = None
        self.ticking = False  # the live line is wanted
        self.lock = threading.Lock()

    def begin(self) -> None:
        with self.lock:
            self.active += 1
            self.last = time.perf_counter()
            self.ticking = True
            if self.ticker is None or not self.ticker.is_alive():
                self.ticker = threading.Thread(
                    target=self._tick, name=f"{self.group.name}-build-notice", daemon=True
                )
                self.ticker.start()

    def end(self, kernel: bool = False, final: bool = False) -> None:
        """One build in progress has ended (``kernel``: a kernel compiled); ``final``: the
        loading is over, so the live line goes now (not after a quiet second), before the
        command prints what it found."""
        with self.lock:
            self.active = max(0, self.active - 1)
            self.built += kernel
            self.last = time.perf_counter()
            over = final and self.active == 0
            if over:
                self.ticking = False
            built, seconds = self.built, self.last - self.start
        if over:
            _NOTICE.finished(self.group, built, seconds)

    def _tick(self) -> None:
        notice = _NOTICE
        while True:
            time.sleep(0.2)
            with self.lock:
                if not self.ticking:
                    return
                now = time.perf_counter()
                # a lazy build pauses between kernels: the live line goes after a quiet second
                idle = self.active == 0 and now - self.last > 1.0
                built, seconds = self.built, now - self.start
                if idle:
                    self.ticking = False
                else:  # under the lock: never drawn after end() has erased it
                    notice.progress(self.group, built, seconds)
            if idle:
                notice.finished(self.group, built, seconds)
                return


_LOCK = threading.Lock()
_BUILDS: dict[str, _Build] = {}
_WATCHED: dict[str, KernelGroup] = {}
_WARMERS: dict[str, tuple[KernelGroup, Callable[[], object]]] = {}
_LISTENING = False


def _announce(group: KernelGroup) -> _Build:
    """The group's build in this process, announced the first time."""
    with _LOCK:
        build = _BUILDS.get(group.name)
        if build is None:
            build = _BUILDS[group.name] = _Build(group)
            _NOTICE.started(group)
    return build


def _group_of(filename: str) -> KernelGroup | None:
    directory = os.path.dirname(os.path.abspath(filename))
    for group in _WATCHED.values():
        if directory == os.path.abspath(group.directory):
            return group
    return None


def _listen() -> None:
    """Hear every kernel numba compiles (numba's ``numba:compile`` event, sent only when a
    kernel is compiled, not when it is loaded from the cache)."""
    global _LISTENING
    with _LOCK:
        if _LISTENING:
            return
        _LISTENING = True
    from numba.core import event

    class Compiles(event.Listener):
        def on_start(self, ev: Any) -> None:
            group = _kernel_group(ev)
            if group is not None:
                _announce(group).begin()

        def on_end(self, ev: Any) -> None:
            group = _kernel_group(ev)
            if group is not None:
                _announce(group).end(kernel=True)

    event.register("numba:compile", Compiles())  # type: ignore[no-untyped-call]


def _kernel_group(ev: Any) -> KernelGroup | None:
    try:
        filename = ev.data["dispatcher"].py_func.__code__.co_filename
    except (AttributeError, KeyError, TypeError):
        return None
    return _group_of(filename)


def watch(group: KernelGroup) -> None:
    """From now on, say when a kernel of ``group`` is built: at once if the cache lacks some
    (before numba is imported), else at the first kernel numba compiles. Call it before the
    group's kernels are first called; calling it again does nothing."""
    with _LOCK:
        known = group.name in _WATCHED
        _WATCHED[group.name] = group
    if known:
        return
    if is_cold(group):
        _announce(group).begin()
        _announce(group).end()  # a lazy build: the live line goes on while kernels compile
    _listen()


@contextmanager
def building(group: KernelGroup) -> Iterator[None]:
    """Around the loading of ``group``'s kernels: :func:`watch`, with the live line kept until
    the block ends. Blocks nest: a block inside another of the same group (a warm-up that
    loads a first command's kernels and then more) joins the outer one's announcement and live
    line, whose figures (a group of the same name, its ``seconds`` and ``kernels`` those of the
    whole load) are what the user is told."""
    with _LOCK:
        known = group.name in _WATCHED
        if not known:  # the first group of the name watched here is the one compiles count for
            _WATCHED[group.name] = group
    cold = is_cold(group)
    build = _announce(group) if cold else None
    if build is not None:
        build.begin()
    try:
        if not known:
            _listen()
        yield
    finally:
        if build is not None:
            build.end(final=True)
    remember(group)  # the block ended without an error: every kernel is in the cache


def register(group: KernelGroup, loader: Callable[[], object]) -> KernelGroup:
    """Make ``group`` known to :func:`warm` and :func:`groups`, with the function that loads
    all its kernels (building them if the cache lacks them); return the group."""
    _WARMERS[group.name] = (group, loader)
    return group


def groups() -> dict[str, KernelGroup]:
    """The registered kernel groups by name (those of the games imported so far)."""
    return {name: group for name, (group, _) in _WARMERS.items()}


def warm(name: str) -> float:
    """Load the kernels of the group called ``name``, building them if numba's cache lacks
    them (said through the notice, with the live line in a terminal); return the seconds it
    took. Raises KeyError for a name no game registered."""
    _, loader = _WARMERS[name]
    start = time.perf_counter()
    loader()
    return time.perf_counter() - start
