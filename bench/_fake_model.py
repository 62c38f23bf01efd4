"""A fake OpenAI-compatible chat server on loopback for the benchmarks and measurements.

A subclass says what each request gets (``reply(body) -> (message, finish_reason)``);
this writes the chat-completions response around it. Fake only because no model
server runs here: it is a real HTTP server speaking the real protocol.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeChat(BaseHTTPRequestHandler):
    def reply(self, body: dict) -> tuple[dict, str]:
        raise NotImplementedError

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        message, finish = self.reply(body)
        payload = json.dumps({"id": "fake", "object": "chat.completion", "model": "fake",
                              "choices": [{"index": 0, "message": {"role": "assistant", **message},
                                           "finish_reason": finish}],
                              "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def system_prompt(body: dict) -> str:
    return next((m["content"] for m in body["messages"] if m["role"] == "system"), "")


def serve(handler: type[FakeChat]) -> tuple[ThreadingHTTPServer, str]:
    """Start ``handler`` on a free loopback port; returns the server and its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
