"""Server-sent events, read line by line as the HTML standard describes the format: ``field: value``
lines, comments starting with ``:``, and a blank line ending each event."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSentEvent:
    data: str
    event: str = "message"
    #: The stream's last event id once this event arrived: the one to resume after.
    id: str | None = None


class SseParser:
    """Turns a stream's lines into events; feed it each line without its line ending."""

    def __init__(self) -> None:
        self._data: list[str] = []
        self._event = ""
        self.last_event_id: str | None = None

    def feed(self, line: str) -> ServerSentEvent | None:
        """The event this line completes, if it is the blank line after one."""
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id" and "\0" not in value:
            self.last_event_id = value
        return None

    def _dispatch(self) -> ServerSentEvent | None:
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return ServerSentEvent(
            data="\n".join(data), event=event or "message", id=self.last_event_id
        )
