"""``python -m unbeatable.web``: serve the web page (see :func:`.server.main`)."""

import sys

from .server import main

sys.exit(main())
