// Server-sent events as the WHATWG spec frames them: lines of `field: value`, a blank line ends
// an event, a line starting with `:` is a comment. Text arrives in chunks that may split a line
// anywhere, so the parser keeps what it has not yet seen the end of.

export interface SseEvent {
  /** The `id` field, when the event had one. */
  id?: string;
  /** The `event` field (`message` when absent). */
  event: string;
  /** The `data` lines, joined by newlines. */
  data: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

  /** The events that `chunk` completes. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) break;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      const width = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + width);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    // `retry` and unknown fields are ignored: the client keeps its own reconnection policy.
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const event =
      this.data.length === 0
        ? undefined
        : {
            ...(this.id !== undefined ? { id: this.id } : {}),
            event: this.event ?? 'message',
            data: this.data.join('\n'),
          };
    this.data = [];
    this.event = undefined;
    this.id = undefined;
    return event;
  }
}
