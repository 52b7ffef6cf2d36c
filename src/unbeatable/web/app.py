"""The web app: routes declared in one place, each turning a request into a library call.

:func:`create_app` makes a Starlette app. Cheap answers (the games, a position's board, the
health check) are computed on the event loop; every search runs in the worker pool
(:mod:`.pool`) within the request's time cap. Errors have one JSON shape,
``{"error": ..., "parameter": ..., "text": ...}``: 400 for a bad input (the library's message,
naming the offending text), 503 with Retry-After when the server is full or stopping, 504 when
a search ran past its cap. No request reads or writes a file by path: the page's files are
package resources, served by name from a fixed list.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..games import get_game, loaded_games, registered
from ..growth import GROWTH_ALGORITHMS
from ..messages import cut
from ..players import parse_player
from ..search import policy
from ..steps import VIEWS
from ..tree import TREE_ALGORITHMS
from .boards import describe_game, describe_position, describe_unavailable
from .inputs import (
    DEFAULT_CAP,
    MAX_TREE_NODES,
    MAX_WORKERS,
    BadInput,
    algorithm_of,
    flag_of,
    limits_of,
    opponent_of,
    optional_int,
    position_of,
    searchable,
    timeout_of,
    unfinished,
)
from .jobs import Job
from .pool import JobFailed, JobPool, Overloaded, PoolClosed, TimedOut

__all__ = ["CSP", "DEFAULT_CAP", "create_app"]

log = logging.getLogger("unbeatable.web")

#: Seconds a client is told to wait after a 503.
RETRY_AFTER = 2

#: The most steps the tree view grows a Monte Carlo or proof-number search (simulations, or
#: positions expanded).
MAX_BUDGET = 1000

#: At most this many seconds a client is told to wait while a game's kernels are loaded.
RETRY_AFTER_WARMING = 5

#: Finished analyses kept to answer the same question again at once.
CACHE_SIZE = 1024

#: The page's Content-Security-Policy: nothing inline, nothing from elsewhere.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package: name -> (content, media type)."""
    folder = resources.files("unbeatable.web").joinpath("static")
    found: dict[str, tuple[bytes, str]] = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in STATIC_TYPES:
            found[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return found


class SecurityHeaders:
    """Adds the CSP and related headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def error(status: int, message: str, parameter: str = "", text: str = "") -> JSONResponse:
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
    body = {"error": message, "parameter": parameter, "text": text}
    return JSONResponse(body, status_code=status, headers=headers)


class Api:
    """The handlers, sharing the pool, the cap and the cache."""

    def __init__(self, pool: JobPool, cap: float) -> None:
        self.pool = pool
        self.cap = cap
        self.cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.cache_hits = 0
        self.files = _static_files()

    async def search(self, job: Job, timeout: float) -> Response:
        """Run ``job`` in the pool; its JSON response, or the error response."""
        found = await self.run(job, timeout)
        return found if isinstance(found, Response) else JSONResponse(found)

    async def run(self, job: Job, timeout: float) -> Any:
        """Run ``job`` in the pool; its data, or the error response (503 "warming up" while
        the game's compiled kernels are still being loaded: see :meth:`.JobPool.warming`)."""
        warming = self.pool.warming(job.game)
        if warming is not None:
            title, left = warming
            wait = max(1, min(RETRY_AFTER_WARMING, round(left)))
            body = {
                "error": f"warming up: loading {title} (building it the first time after an "
                f"install: about {left:.0f} s more); try again in {wait} s",
                "parameter": "game",
                "text": job.game,
            }
            return JSONResponse(body, status_code=503, headers={"Retry-After": str(wait)})
        try:
            return await self.pool.run(job, timeout)
        except Overloaded:
            return error(
                503,
                "the server is busy: every worker is searching and the queue "
                f"is full; try again in {RETRY_AFTER} s",
            )
        except PoolClosed:
            return error(503, "the server is stopping")
        except TimedOut:
            return error(
                504,
                f"the search did not finish within its time cap of {timeout:g} s: "
                "ask for a depth or time limit, or a later position",
                "timeout",
                f"{timeout:g}",
            )
        except JobFailed as failed:
            if failed.kind == "bad":
                return error(400, str(failed), failed.parameter, failed.text)
            log.error("job %s failed: %s\n%s", job.kind, failed, failed.trace)
            return error(500, f"the search failed: {failed}")

    # --- routes ---------------------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        found = []
        for name, summary in registered().items():
            try:
                game = get_game(name)
            except ValueError as missing:  # a game that cannot be made here: say why
                found.append(describe_unavailable(name, summary, " ".join(str(missing).split())))
                continue
            found.append(describe_game(name, summary, game))
        for name, game in loaded_games().items():  # the server's --game and entry points
            found.append(describe_game(name, getattr(game, "summary", name), game))
        return JSONResponse({"games": found, "cap": self.cap})

    async def position(self, request: Request) -> Response:
        where = position_of(request.query_params)
        data = describe_position(where)
        data["moves_text"] = where.moves_text
        return JSONResponse(data)

    async def analyze(self, request: Request) -> Response:
        query = request.query_params
        where = unfinished(position_of(query))
        timeout = timeout_of(query, self.cap)
        asked = limits_of(query, self.cap)
        limits = policy.limits_for(where.state, asked, purpose="analysis", cap=timeout)
        algorithm = algorithm_of(query)
        searchable(where, algorithm, "algorithm", query.get("algorithm", ""))
        key = (where.game.spec, where.text, limits.depth, algorithm)
        # an answer is kept when no time limit was asked for (the policy's own time limit
        # inside the cap leaves a complete answer exact)
        cached = self.cache.get(key) if asked.time is None else None
        if cached is not None:
            self.cache.move_to_end(key)
            self.cache_hits += 1
            return JSONResponse(cached, headers={"X-Cache": "hit"})
        job = Job(
            "analyze",
            where.game.spec,
            where.text,
            timeout,
            limits.depth,
            limits.time,
            algorithm,
        )
        found = await self.run(job, timeout)
        if isinstance(found, Response):
            return found
        if asked.time is None and found.get("complete"):
            self.cache[key] = found
            while len(self.cache) > CACHE_SIZE:
                self.cache.popitem(last=False)
        return JSONResponse(found)

    async def move(self, request: Request) -> Response:
        query = request.query_params
        where = unfinished(position_of(query))
        opponent = opponent_of(query, self.cap)
        if not where.state.is_chance:  # a roll needs no player
            player = parse_player(opponent, random.Random(0))
            chosen = getattr(getattr(player, "searcher", None), "algorithm", None)
            searchable(where, chosen, "opponent", opponent)
        seed = optional_int(query, "seed", 0, 2**31)
        timeout = timeout_of(query, self.cap)
        job = Job("move", where.game.spec, where.text, timeout, opponent=opponent, seed=seed)
        return await self.search(job, timeout)  # a time limit holds it inside the cap

    async def tree(self, request: Request) -> Response:
        query = request.query_params
        where = unfinished(position_of(query))
        depth = optional_int(query, "depth", 1, 12) or 2
        algorithm = algorithm_of(query, TREE_ALGORITHMS + GROWTH_ALGORITHMS) or "alphabeta"
        budget = optional_int(query, "budget", 1, MAX_BUDGET) or 30
        state = where.state
        if state.has_chance or state.players > 2:
            kind = "chance" if state.has_chance else f"{state.players} players"
            raise BadInput(
                f"{where.game.spec} is a game of {kind}: the tree view draws the trees of two "
                "players without chance (analyze it instead)",
                "game",
                where.game.spec,
            )
        if algorithm in GROWTH_ALGORITHMS and flag_of(query, "textbook") and not flag_of(
            query, "quiz"
        ):
            raise BadInput(
                f"textbook is alpha-beta's: {algorithm} has no textbook form here", "textbook",
                query.get("textbook", ""),
            )
        hints = flag_of(query, "hints")
        textbook = flag_of(query, "textbook")
        if hints and textbook:
            raise BadInput(
                "textbook and hints exclude each other: the textbook's alpha-beta has no move "
                "hints",
                "hints",
                query.get("hints", ""),
            )
        view = query.get("view", "").strip() or None
        if view is not None and view not in VIEWS:
            raise BadInput(f"view: choose one of {', '.join(VIEWS)}", "view", view)
        boards_text = query.get("boards", "").strip()
        boards = None if boards_text in ("", "auto") else flag_of(query, "boards")
        max_nodes = optional_int(query, "max_nodes", 1, MAX_TREE_NODES) or 500
        timeout = timeout_of(query, self.cap)
        job = Job(
            "tree",
            where.game.spec,
            where.text,
            timeout,
            depth,
            algorithm=algorithm,
            hints=hints,
            max_nodes=max_nodes,
            table=flag_of(query, "table"),
            textbook=textbook,
            view=view,
            boards=boards,
            quiz=flag_of(query, "quiz"),
            budget=budget,
        )
        return await self.search(job, timeout)

    async def parallel(self, request: Request) -> Response:
        query = request.query_params
        where = unfinished(position_of(query))
        depth = optional_int(query, "depth", 1, 40)
        workers = optional_int(query, "workers", 1, MAX_WORKERS) or 2
        algorithm = algorithm_of(query)
        searchable(where, algorithm, "algorithm", query.get("algorithm", ""))
        timeout = timeout_of(query, self.cap)
        job = Job(
            "parallel",
            where.game.spec,
            where.text,
            timeout,
            depth,
            algorithm=algorithm,
            workers=workers,
        )
        return await self.search(job, timeout)

    async def health(self, request: Request) -> Response:
        pool = self.pool
        return JSONResponse(
            {
                "status": "stopping" if pool.closed else "ok",
                "workers": pool.size,
                "busy": pool.busy,
                "waiting": pool.waiting,
                "queue": pool.queue,
                "cap": self.cap,
                "cached": len(self.cache),
                "cache_hits": self.cache_hits,
                "warming": sorted(
                    name for name in registered() if pool.warming(name) is not None
                ),
            }
        )

    async def static(self, request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        found = self.files.get(name)
        if found is None:
            return error(404, f"no such file: {name!r}", "path", name)
        content, media = found
        return Response(content, media_type=media, headers={"Cache-Control": "no-cache"})


async def _no_route(request: Request, exc: Exception) -> Response:
    """A 404 or 405 (a path no route has, a method other than GET) in the one error shape:
    every answer of the API is JSON."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    path = request.url.path
    if status == 405:
        method = request.method
        return error(405, f"{method} {cut(path)!r}: only GET is answered", "method", method)
    return error(status, f"no such route: {cut(path)!r}", "path", path)


def _guard(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """A handler whose BadInput becomes a 400 with the one error shape."""

    async def guarded(request: Request) -> Response:
        try:
            response: Response = await handler(request)
        except BadInput as bad:
            return JSONResponse(bad.to_json(), status_code=400)
        return response

    return guarded


def create_app(
    workers: int = 2,
    *,
    queue: int | None = None,
    cap: float = DEFAULT_CAP,
    pool: JobPool | None = None,
    warm: bool | Literal["background"] = True,
) -> Starlette:
    """The app. ``workers`` search processes, at most ``queue`` requests waiting for one
    (default: 4 per worker), ``cap`` seconds at most per search. The pool is forked when the
    app starts (its lifespan) and stopped when it ends; ``warm``: load the compiled solvers
    before forking it, or ``"background"``: while serving (see :meth:`.JobPool.start`)."""
    pool = pool or JobPool(workers, 4 * workers if queue is None else queue)
    api = Api(pool, cap)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start(warm)
        try:
            yield
        finally:
            pool.close()

    routes = [
        Route("/", api.static),
        Route("/static/{name}", api.static),
        Route("/api/games", _guard(api.games)),
        Route("/api/position", _guard(api.position)),
        Route("/api/analyze", _guard(api.analyze)),
        Route("/api/move", _guard(api.move)),
        Route("/api/tree", _guard(api.tree)),
        Route("/api/parallel", _guard(api.parallel)),
        Route("/api/health", api.health),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={404: _no_route, 405: _no_route},
    )
    app.state.pool = pool
    app.state.api = api
    return app
