"""The server-sent events reader, on the format's edge cases."""

from __future__ import annotations

from evalflow_client.sse import ServerSentEvent, SseParser


def feed(parser: SseParser, text: str) -> list[ServerSentEvent]:
    return [event for line in text.split("\n") if (event := parser.feed(line)) is not None]


def test_frames_with_comments_multiline_data_and_ids_become_events():
    parser = SseParser()
    text = (
        ': evalflow events\n\nid: 1\nevent: thread_created\ndata: {"a":\ndata: 1}\n\n'
        ": keep-alive\n\n"
    )
    assert feed(parser, text) == [ServerSentEvent(data='{"a":\n1}', event="thread_created", id="1")]
    assert parser.last_event_id == "1"


def test_the_last_event_id_carries_over_and_a_frame_without_data_is_no_event():
    parser = SseParser()
    assert feed(parser, "id: 7\n\ndata:x\n\nid\ndata: y\n\n") == [
        ServerSentEvent(data="x", id="7"),
        ServerSentEvent(data="y", id=""),
    ]
