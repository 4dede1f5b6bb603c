"""What the sync and async clients share about one exchange: the headers a call sends, and what an
answer means (a value, a refusal, or a reason to try again)."""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

import httpx

from .errors import RejectionError, rejection
from .models import RejectionBody
from .retry import is_retryable_status, parse_retry_after
from .routes import Call

T = TypeVar("T")

VERSION = "0.1.0"
USER_AGENT = f"evalflow-client-python/{VERSION}"
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
#: The API sends a comment every 15 s on an idle stream; three missed means the link is gone.
STREAM_TIMEOUT = httpx.Timeout(30.0, connect=10.0, read=45.0)

# A refusal without the API's JSON body (a proxy's 502, say) still gets a type.
_TYPE_OF_STATUS = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "too_large",
    422: "validation_failed",
    429: "rate_limited",
    500: "internal",
}


def base_headers(key: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {key}",
        "User-Agent": USER_AGENT,
        "Accept": "application/json",
    }


def call_headers(call: Call[Any], idempotency_key: str | None) -> dict[str, str]:
    """A write's Idempotency-Key, made once per call so that every retry sends the same one."""
    if not call.is_write:
        return {}
    return {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}


def retryable(error: httpx.TransportError) -> bool:
    """A network error is worth another try, unless the URL itself can never work."""
    return not isinstance(error, (httpx.UnsupportedProtocol, httpx.InvalidURL))


def should_retry(call: Call[Any], response: httpx.Response) -> bool:
    status = response.status_code
    return is_retryable_status(status) and status not in call.route.also_ok


def retry_after(response: httpx.Response) -> float | None:
    return parse_retry_after(response.headers.get("retry-after"))


def result(call: Call[T], response: httpx.Response) -> T:
    """The call's value from a final answer, or its refusal raised."""
    if response.is_success or response.status_code in call.route.also_ok:
        return call.parse(response.json() if response.content else None)
    raise refusal(response)


def refusal(response: httpx.Response) -> RejectionError:
    """The typed exception for a refusal, with the body the API sent."""
    status = response.status_code
    try:
        body = RejectionBody.model_validate(response.json())
    except ValueError:
        fallback = (
            "unavailable" if status in (502, 503, 504) else _TYPE_OF_STATUS.get(status, "internal")
        )
        text = response.text.strip()[:500]
        body = RejectionBody(type=fallback, message=text or response.reason_phrase or str(status))
    return rejection(
        status,
        body,
        request_id=response.headers.get("x-request-id"),
        retry_after=retry_after(response),
    )
