"""The ASGI server, defined once: uvicorn with httptools.

``manage.py serve``, the image, the benches and the tests' live servers all
serve ``acehrag.asgi:application`` with these options. uvicorn applies flow
control: once a connection's write buffer is over its high-water mark,
``send`` waits for the client to drain it, so the edge's send timeout
(``ACEH_RAG_LIMITS__SSE_SEND_TIMEOUT_SECONDS``) sees a client that stopped
reading (daphne buffered every frame without ever blocking ``send``).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys

APPLICATION = "acehrag.asgi:application"
GRACEFUL_SHUTDOWN_SECONDS = 5
# An idle keep-alive connection is closed after this long. uvicorn's 5 s default equals the Retry-After
# of a 503 beyond the answer bound, so a client that honoured it raced the close on its pooled
# connection (a connection error in bench/load.py's 200-client burst); 75 s outlasts it and common proxies' 60 s.
KEEP_ALIVE_SECONDS = 75

# Django serves HTTP only: no websockets, no lifespan; the structured acehrag.access line replaces uvicorn's.
OPTIONS = {
    "http": "httptools",
    "ws": "none",
    "lifespan": "off",
    "access_log": False,
    "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
}


def server_argv(host: str, port: int, python: str = sys.executable) -> list[str]:
    """The command line serving the project in a process of its own (the tests' and benches' servers)."""
    return [python, "-m", "acehrag.serving", "--host", host, "--port", str(port)]


def serve(host: str, port: int) -> None:
    """Serve in this process, keeping Django's logging configuration; returns on SIGINT or SIGTERM.

    uvicorn re-raises the signal that stopped it once it has shut down; SIGTERM's default action
    would then end the process without its exit handlers, leaving the embedded PostgreSQL this
    process started running. Here SIGTERM exits normally instead.
    """
    import uvicorn

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    uvicorn.run(APPLICATION, host=host, port=port, log_config=None, **OPTIONS)


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve acehrag.asgi:application with uvicorn (no migrations).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
    serve(args.host, args.port)


if __name__ == "__main__":
    main()
