"""``python -m unbeatable.web``: serve the web page (see :func:`.server.main`)."""

import sys

from .server import main

if __name__ == "__main__":
    sys.exit(main())
