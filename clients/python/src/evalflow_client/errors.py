"""The client's errors: a refusal from the API as a typed exception carrying its body, and the
one error for a server that could not be reached at all."""

from __future__ import annotations

from typing import Any, ClassVar

from .models import RejectionBody


class EvalflowError(Exception):
    """The base of every error this client raises."""


class EvalflowConnectionError(EvalflowError):
    """Thrown when the API could not be reached, or stopped answering, on every attempt.

    The last network error is the ``__cause__``.
    """


class RejectionError(EvalflowError):
    """Thrown when the API answers a refusal: a 4xx, or a 5xx or 429 still there after the retries.

    ``status`` is the HTTP status and ``body`` the rejection as the API sent it; ``type``,
    ``message``, ``entity``, ``id`` and ``errors`` are the body's fields. A subclass per ``type``
    lets callers catch one kind (``except NotFoundError``).
    """

    rejection_type: ClassVar[str | None] = None

    def __init__(
        self,
        status: int,
        body: RejectionBody,
        *,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{status} {body.type}: {body.message}")
        self.status = status
        self.body = body
        self.request_id = request_id
        self.retry_after = retry_after

    @property
    def type(self) -> str:
        return self.body.type

    @property
    def message(self) -> str:
        return self.body.message

    @property
    def entity(self) -> str | None:
        return self.body.entity

    @property
    def id(self) -> str | None:
        return self.body.id

    @property
    def errors(self) -> list[Any] | None:
        return self.body.errors


class NotFoundError(RejectionError):
    """Thrown on 404 ``not_found``: ``entity`` and ``id`` name what does not exist."""

    rejection_type = "not_found"


class InvalidStateError(RejectionError):
    """Thrown on 409 ``invalid_state``: the command does not fit what the entity is now."""

    rejection_type = "invalid_state"


class ValidationFailedError(RejectionError):
    """Thrown on 422 ``validation_failed``: ``errors`` lists the problems."""

    rejection_type = "validation_failed"


class ForbiddenError(RejectionError):
    """Thrown on 403 ``forbidden``: the key's principal may not do this."""

    rejection_type = "forbidden"


class ConflictError(RejectionError):
    """Thrown on 409 ``conflict``: it exists already, or an Idempotency-Key was reused."""

    rejection_type = "conflict"


class BadRequestError(RejectionError):
    """Thrown on 400 ``bad_request``: a malformed or unsupported request."""

    rejection_type = "bad_request"


class UnauthenticatedError(RejectionError):
    """Thrown on 401 ``unauthenticated``: no key, or one malformed, unknown, revoked or expired."""

    rejection_type = "unauthenticated"


class TooLargeError(RejectionError):
    """Thrown on 413 ``too_large``: the body is over the API's limit."""

    rejection_type = "too_large"


class RateLimitedError(RejectionError):
    """Thrown on 429 ``rate_limited`` once the retries are spent; ``retry_after`` is the wait."""

    rejection_type = "rate_limited"


class InternalError(RejectionError):
    """Thrown on 500 ``internal`` once the retries are spent."""

    rejection_type = "internal"


class UnavailableError(RejectionError):
    """Thrown on 503 ``unavailable`` once the retries are spent."""

    rejection_type = "unavailable"


_BY_TYPE: dict[str, type[RejectionError]] = {
    cls.rejection_type: cls
    for cls in (
        NotFoundError,
        InvalidStateError,
        ValidationFailedError,
        ForbiddenError,
        ConflictError,
        BadRequestError,
        UnauthenticatedError,
        TooLargeError,
        RateLimitedError,
        InternalError,
        UnavailableError,
    )
    if cls.rejection_type is not None
}


def rejection(
    status: int,
    body: RejectionBody,
    *,
    request_id: str | None = None,
    retry_after: float | None = None,
) -> RejectionError:
    """The exception for a refusal: its type's subclass, or ``RejectionError`` for a new type."""
    cls = _BY_TYPE.get(body.type, RejectionError)
    return cls(status, body, request_id=request_id, retry_after=retry_after)
