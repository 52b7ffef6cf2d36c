"""The web server's command line: ``python -m unbeatable.web [--host H] [--port P] ...``.

:func:`main` parses the options, warns when the page is served beyond this machine, and runs
the app under uvicorn. Ctrl-C (SIGINT) or SIGTERM stops every running search at once (their
requests get a 503), then the server and its worker processes; none is left behind.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import IO, TYPE_CHECKING

from ..messages import cut_echoes
from .inputs import DEFAULT_CAP  # (no Starlette: --help works without the web extra)

if TYPE_CHECKING:
    import socket

__all__ = ["build_parser", "free_port", "is_loopback", "launch", "main", "stop"]

PROG = "unbeatable serve"

#: The exit code after Ctrl-C (128 + SIGINT), as every command of ``unbeatable`` gives it.
INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(f"{message} (see '{self.prog} --help')")


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text.strip().removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):  # int also reads "８０" and "1_0"
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text) if len(digits.lstrip("0")) <= len(str(high)) else high + 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} must be from {low} to {high}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        if not text.isascii() or "_" in text:  # float also reads "１" and "1_0"
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 24 * 3600:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Serve the web page: play every game against the AI and watch the search.",
        epilog="Example: unbeatable serve --port 8080",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=_whole(0, 65535), default=8000, help="port (8000)")
    parser.add_argument(
        "--workers",
        type=_whole(1, 64),
        default=min(4, os.cpu_count() or 1),
        help="search processes (default: the cores, at most 4)",
    )
    parser.add_argument(
        "--queue",
        type=_whole(0, 10_000),
        help="requests that may wait for a worker; past it, 503 (default: 4 per worker)",
    )
    parser.add_argument(
        "--time-cap",
        type=_seconds,
        default=DEFAULT_CAP,
        metavar="SECONDS",
        help=f"the longest one search may run (default {DEFAULT_CAP:g}; a request may ask less)",
    )
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="MODULE:ATTRIBUTE",
        help="add a game of your own to the page (repeatable): a Game, a State subclass whose "
        "no-argument instance is the start, or a function returning either; the module is "
        "looked for in the current directory first. Games that installed packages register "
        "under the entry point group unbeatable.games are added too",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn's log level (warning)")
    return parser


def load_games(specs: Sequence[str], err: IO[str]) -> bool:
    """Import the games given by ``--game`` (a bad one: one line, False) and those installed
    packages register (a broken one is left out with a warning); nothing else is ever
    imported: a request naming any other game gets a 400."""
    from ..games import GameLoadError, entry_points, load_game, registered

    for spec in specs:
        try:
            load_game(spec)
        except ValueError as error:
            print(f"{PROG}: error: --game: {cut_echoes(' '.join(str(error).split()))}", file=err)
            return False
    for name in entry_points():
        if name in registered():
            continue
        try:
            load_game(name)
        except GameLoadError as error:
            print(f"{PROG}: warning: the installed game {name!r} is left out: {error}", file=err)
    return True


def is_loopback(host: str) -> bool:
    """True when ``host`` reaches only this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv: Sequence[str] | None = None, *, stderr: IO[str] | None = None) -> int:
    """Serve until Ctrl-C or SIGTERM; the exit code: 130 after Ctrl-C (SIGINT, as every
    command), 0 after SIGTERM (a service manager's stop), 1 when it could not serve (the port
    is taken), 2 for a bad option."""
    err = stderr or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except ValueError as error:
        print(f"{PROG}: error: {cut_echoes(' '.join(str(error).split()))}", file=err)
        return 2
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as missing:
        print(
            f"{PROG}: error: the web page needs {missing.name}: pip install 'unbeatable[web]'",
            file=err,
        )
        return 2
    if not load_games(args.game, err):
        return 2
    from ..games.chess import check_network

    try:
        check_network()
    except ValueError as error:  # the network file UNBEATABLE_CHESS_NET names
        print(f"{PROG}: error: {error}", file=err)
        return 2
    if not is_loopback(args.host):
        print(
            f"{PROG}: warning: listening on {args.host}: the page and its searches are open "
            "to every machine that can reach this one (no login, no TLS)",
            file=err,
        )
    return _serve(args, err)


class Terminated(Exception):
    """SIGTERM, raised again by uvicorn once the server has stopped."""


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _serve(args: argparse.Namespace, err: IO[str]) -> int:
    """Run the app under uvicorn until a signal; stop the searches first on one."""
    import uvicorn

    from .app import create_app

    shown = f"[{args.host}]" if ":" in args.host else args.host
    try:  # bound before anything starts, so that the address said is the one served
        sock = _bind(args.host, args.port)
    except OSError as error:
        why = error.strerror or str(error)
        print(f"{PROG}: error: could not serve on {shown}:{args.port}: {why}", file=err)
        return 1
    port = sock.getsockname()[1]  # --port 0: the one the system picked
    app = create_app(args.workers, queue=args.queue, cap=args.time_cap, warm="background")
    pool = app.state.pool

    signals: list[int] = []

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            signals.append(sig)
            pool.cancel_all()  # running searches end now; their requests get a 503
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = Server(config)
    print(
        f"{PROG}: http://{shown}:{port}/ ({args.workers} workers; Ctrl-C to stop)",
        file=err,
        flush=True,
    )
    # uvicorn raises the signal that stopped it again once it has stopped: SIGINT as
    # KeyboardInterrupt, SIGTERM through this handler (by default it would end the process
    # before the pool is closed)
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        signals.append(signal.SIGINT)
    except Terminated:
        signals.append(signal.SIGTERM)
    except SystemExit:
        pass  # uvicorn could not start (it said why)
    finally:
        signal.signal(signal.SIGTERM, before)
        pool.close()
        sock.close()
    if not server.started and signal.SIGINT not in signals:
        print(f"{PROG}: error: could not serve on {shown}:{port}", file=err)
        return 1
    return INTERRUPTED if signal.SIGINT in signals else 0


def _bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: one the system picks), as uvicorn binds
    its own (IPv6 for a host with a colon, the address reusable at once after a restart);
    OSError when it cannot be (the port taken, an unknown host)."""
    import socket

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` now."""
    import socket

    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def launch(
    port: int,
    *,
    workers: int = 2,
    queue: int | None = None,
    cap: float | None = None,
    timeout: float = 60.0,
    host: str = "127.0.0.1",
    games: Sequence[str] = (),
    cwd: str | None = None,
    ready: bool = True,
) -> subprocess.Popen[str]:
    """Start ``python -m unbeatable.web`` on 127.0.0.1:``port`` in a new process (in the
    directory ``cwd``, with ``--game`` for each of ``games``), and return it once the health
    check answers (for tests and benchmarks; stop it with SIGINT); ``ready``: and says no game
    is warming up any more (the compiled games answer)."""
    import json
    import time
    import urllib.request

    command = [
        sys.executable,
        "-m",
        "unbeatable.web",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    if queue is not None:
        command += ["--queue", str(queue)]
    if cap is not None:
        command += ["--time-cap", str(cap)]
    for game in games:
        command += ["--game", game]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=cwd)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {stop(process)}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                if r.status == 200 and not (ready and json.load(r).get("warming")):
                    return process
                time.sleep(0.1)
        except OSError:
            time.sleep(0.1)
    process.kill()
    stop(process, 1)
    raise RuntimeError(f"the server did not answer on port {port} within {timeout:g} s")


def stop(process: subprocess.Popen[str], timeout: float = 20.0) -> str:
    """Stop a server that :func:`launch` started, as Ctrl-C does (SIGINT), killing it after
    ``timeout`` seconds; what it wrote on stderr (its exit code is ``process.returncode``)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err or ""
