"""``python -m unbeatable.web``: serve the web page (see :func:`.server.main`), with Ctrl-C
heard from the first instant (:func:`unbeatable.__main__.guarded`)."""

from unbeatable.__main__ import guarded

if __name__ == "__main__":
    guarded("unbeatable.web.server")
