"""When to try a request again and how long to wait first.

A server fault (5xx), a rate limit (429) and a network error are retried; every other answer is
final. Each wait is a full-jitter exponential backoff; when the API says ``Retry-After``, the wait
is at least that long (plus a little jitter, so clients told the same number spread out). A write
keeps its Idempotency-Key across the tries, so the API records it once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime


def is_retryable_status(status: int) -> bool:
    return status >= 500 or status == 429


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to try a request and how long to wait between tries, in seconds."""

    #: Tries in all, the first included; 1 never retries.
    attempts: int = 5
    #: The backoff's first ceiling; it doubles each retry up to ``max_delay``.
    base_delay: float = 0.25
    max_delay: float = 8.0
    #: A Retry-After longer than this is not waited for: the refusal is raised at once.
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts is at least 1, not {self.attempts}")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise ValueError("delays are zero or more seconds")

    def delay(
        self,
        retry: int,
        retry_after: float | None = None,
        rand: Callable[[], float] = random.random,
    ) -> float | None:
        """The wait before retry number ``retry`` (0 for the first), or None to give up."""
        if retry + 1 >= self.attempts:
            return None
        ceiling = min(self.max_delay, self.base_delay * 2.0**retry)
        if retry_after is None:
            return rand() * ceiling
        if retry_after > self.max_retry_after:
            return None
        return retry_after + rand() * min(ceiling, self.base_delay)


NO_RETRIES = RetryPolicy(attempts=1)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After in seconds from its two forms, delta-seconds or an HTTP date; None if neither."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())
