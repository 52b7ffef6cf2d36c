"""The web page: play every game against the AI and watch the search think.

``python -m unbeatable.web`` (or ``unbeatable serve``, or ``make serve``) starts it on
http://127.0.0.1:8000; :func:`.app.create_app` makes the ASGI app. Needs the ``web`` extra
(Starlette and uvicorn): ``pip install 'unbeatable[web]'``. See docs/web.md.
"""
