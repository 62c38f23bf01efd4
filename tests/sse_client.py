"""A small SSE reader over httpx, parsing frames in wire order."""
from __future__ import annotations

import json

import httpx


def parse_frames(raw: str) -> list[tuple[str, dict]]:
    frames = []
    for block in raw.replace("\r\n", "\n").split("\n\n"):
        if not block.strip():
            continue
        event, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[len("event:"):].strip()
            elif line.startswith("data:"):
                data.append(line[len("data:"):].lstrip())
        assert len(data) == 1, f"a frame must carry one data line: {block!r}"
        frames.append((event, json.loads(data[0])))
    return frames


def stream(url: str, body: dict, headers: dict, timeout: float = 60.0) -> tuple[httpx.Response, list[tuple[str, dict]]]:
    with httpx.stream("POST", url, json=body, headers={**headers, "Accept": "text/event-stream"}, timeout=timeout) as response:
        raw = response.read().decode("utf-8")
    if not response.headers.get("content-type", "").startswith("text/event-stream"):
        return response, []
    return response, parse_frames(raw)
