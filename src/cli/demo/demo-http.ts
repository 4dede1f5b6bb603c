// The demo's HTTP calls: plain fetch with a key, each refusal one error naming the call, and the
// event stream read until the events wanted have arrived.

/** Thrown when a demo step's request is refused; the message names the call and the answer. */
export class DemoStepError extends Error {
  override readonly name = 'DemoStepError';
}

export class DemoHttp {
  constructor(readonly url: string) {}

  async call<T = Record<string, unknown>>(
    key: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const answer = text === '' ? null : (JSON.parse(text) as { message?: string });
    if (!response.ok) {
      throw new DemoStepError(
        `${method} ${path} answered ${response.status}: ${answer?.message ?? text}`,
      );
    }
    return answer as T;
  }

  /**
   * The `feedback_given` events whose envelope ids are in `ids`, read from `GET /v1/events` until
   * all have arrived (or `timeoutMs` passed): their values by envelope id.
   */
  async feedbackValues(
    key: string,
    ids: ReadonlySet<string>,
    timeoutMs = 15_000,
  ): Promise<Map<string, Record<string, unknown>>> {
    const values = new Map<string, Record<string, unknown>>();
    if (ids.size === 0) return values;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), timeoutMs);
    try {
      const response = await fetch(`${this.url}/v1/events`, {
        headers: { authorization: `Bearer ${key}` },
        signal: stop.signal,
      });
      if (!response.ok || response.body === null) {
        throw new DemoStepError(`GET /v1/events answered ${response.status}`);
      }
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        const frames = buffered.split('\n\n');
        buffered = frames.pop() ?? '';
        for (const frame of frames) {
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice('data: '.length))
            .join('\n');
          if (data === '') continue;
          const envelope = JSON.parse(data) as {
            id: string;
            event: { type: string; value?: Record<string, unknown> };
          };
          if (envelope.event.type === 'feedback_given' && ids.has(envelope.id)) {
            values.set(envelope.id, envelope.event.value ?? {});
          }
        }
        if (values.size >= ids.size) break;
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    } finally {
      clearTimeout(timer);
      stop.abort();
    }
    return values;
  }
}
