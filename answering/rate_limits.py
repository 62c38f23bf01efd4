"""Fixed-window request counting in the shared cache: the public chat's and the playground's limits."""
from __future__ import annotations

import math
import time

from asgiref.sync import async_to_sync
from django.core.cache import cache

from kernel.config import PlaygroundSettings
from kernel.errors import RateLimited


async def rate_window_count(key: str, limit: int, window: int) -> int | None:
    """Count one request in a window that opens with the first one; seconds to wait when over."""
    now = time.time()
    # The window is anchored at its first request so a burst cannot straddle two windows.
    await cache.aadd(f"{key}:start", now, timeout=window)
    await cache.aadd(key, 0, timeout=window)
    try:
        count = await cache.aincr(key)
    except ValueError:  # expired between add and incr
        await cache.aset(key, 1, timeout=window)
        count = 1
    if count <= limit:
        return None
    started = await cache.aget(f"{key}:start", now)
    return max(1, math.ceil(started + window - now))


class PlaygroundRateLimited(RateLimited):
    code = "playground_rate_limited"

    def __init__(self, retry_after: int):
        super().__init__(f"Too many playground runs; try again in {retry_after} seconds", retry_after=retry_after)


def playground_rate_check(*, admin_subject: str, config: PlaygroundSettings) -> None:
    """Count one run for this administrator; raise ``PlaygroundRateLimited`` beyond the limit."""
    wait = async_to_sync(rate_window_count)(
        f"playground:rate:admin:{admin_subject}", config.rate_limit, config.rate_window_seconds)
    if wait is not None:
        raise PlaygroundRateLimited(wait)
