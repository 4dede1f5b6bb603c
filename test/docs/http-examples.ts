// The worked examples of docs/api.md as data: each ```http block that starts with a request line
// is a request, and the ```http block after it, starting with a status line, is its answer. A
// line `<!-- shape only -->` just before an answer says its values depend on timing (a batch's
// counts), so only its shape is compared.

export interface HttpRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: string | undefined;
}

export interface HttpAnswer {
  status: number;
  headers: [string, string][];
  /** JSON for a JSON answer, or the text of an event stream. */
  body: string;
  shapeOnly: boolean;
}

export interface HttpExample {
  request: HttpRequest;
  answer: HttpAnswer;
  /** Where the answer block sits in the document, to rewrite it. */
  answerStart: number;
  answerEnd: number;
}

const BLOCK = /```http\n([\s\S]*?)```/g;
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\S+)$/;
const STATUS_LINE = /^HTTP\/1\.1 (\d{3})\b/;
export const SHAPE_ONLY = '<!-- shape only -->';

function headersAndBody(lines: string[]): { headers: [string, string][]; body: string } {
  const blank = lines.indexOf('');
  const headerLines = blank < 0 ? lines : lines.slice(0, blank);
  const headers = headerLines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`not a header line: ${line}`);
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  return {
    headers,
    body:
      blank < 0
        ? ''
        : lines
            .slice(blank + 1)
            .join('\n')
            .trim(),
  };
}

export function parseExamples(text: string): HttpExample[] {
  const examples: HttpExample[] = [];
  let pending: HttpRequest | undefined;
  for (const match of text.matchAll(BLOCK)) {
    const lines = (match[1] ?? '').replace(/\n$/, '').split('\n');
    const first = lines[0] ?? '';
    const request = REQUEST_LINE.exec(first);
    const status = STATUS_LINE.exec(first);
    if (request) {
      if (pending) throw new Error(`${pending.method} ${pending.path} has no answer block`);
      const { headers, body } = headersAndBody(lines.slice(1));
      pending = {
        method: request[1] as string,
        path: request[2] as string,
        headers,
        body: body === '' ? undefined : body,
      };
    } else if (status) {
      if (!pending) throw new Error(`an answer block follows no request: ${first}`);
      const { headers, body } = headersAndBody(lines.slice(1));
      const start = match.index ?? 0;
      const before = text.slice(0, start).trimEnd();
      examples.push({
        request: pending,
        answer: {
          status: Number(status[1]),
          headers,
          body,
          shapeOnly: before.endsWith(SHAPE_ONLY),
        },
        answerStart: start,
        answerEnd: start + match[0].length,
      });
      pending = undefined;
    } else {
      throw new Error(`an http block starts with neither a request nor a status line: ${first}`);
    }
  }
  if (pending) throw new Error(`${pending.method} ${pending.path} has no answer block`);
  return examples;
}

// Values the server makes up (ids, keys, tokens, times) differ on every run: two of one kind
// match. Everything else must be equal.
const GENERATED: RegExp[] = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /^[0-9a-f]{32}$/,
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  /^efk_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/,
  /^eut_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/,
  /^esi_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/,
  /^\/ui\/#token=esi_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/,
  /^http-[0-9a-f]{32}-.+$/,
];
// A server time inside a message (the store's clock a reported time is checked against).
const TIME_IN_TEXT = /\(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\)/g;
const withoutTimes = (text: string) => text.replace(TIME_IN_TEXT, '(time)');
const sameKind = (a: string, b: string) =>
  GENERATED.some((kind) => kind.test(a) && kind.test(b)) ||
  (withoutTimes(a) === withoutTimes(b) && a !== withoutTimes(a));

/** Where `actual` differs from `documented` ('' when it does not), as a JSON path and both values. */
export function difference(
  documented: unknown,
  actual: unknown,
  shapeOnly: boolean,
  path = '$',
): string {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(documented) !== kind(actual)) {
    return `${path}: documented ${JSON.stringify(documented)}, answered ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(documented) && Array.isArray(actual)) {
    if (documented.length !== actual.length) {
      return `${path}: documented ${documented.length} items, answered ${actual.length}`;
    }
    const inOrder = documented
      .map((item, i) => difference(item, actual[i], shapeOnly, `${path}[${i}]`))
      .find((found) => found !== '');
    if (inOrder === undefined) return '';
    // Items the server lists in no fixed order (feedback by rater, say) may come in any order.
    const unused = [...actual];
    for (const item of documented) {
      const at = unused.findIndex((candidate) => difference(item, candidate, shapeOnly) === '');
      if (at < 0) return inOrder;
      unused.splice(at, 1);
    }
    return '';
  }
  if (kind(documented) === 'object') {
    const a = documented as Record<string, unknown>;
    const b = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      if (!(key in a)) return `${path}.${key}: answered but not documented`;
      if (!(key in b)) return `${path}.${key}: documented but not answered`;
      const found = difference(a[key], b[key], shapeOnly, `${path}.${key}`);
      if (found) return found;
    }
    return '';
  }
  if (shapeOnly || documented === actual) return '';
  // How long a call took is the machine's, like a time: only its kind is documented.
  if (
    typeof documented === 'number' &&
    typeof actual === 'number' &&
    path.endsWith('.durationMs')
  ) {
    return '';
  }
  if (
    typeof documented === 'string' &&
    typeof actual === 'string' &&
    sameKind(documented, actual)
  ) {
    return '';
  }
  return `${path}: documented ${JSON.stringify(documented)}, answered ${JSON.stringify(actual)}`;
}

/** An event stream's events: `{id, event, data}` each, comments left out. */
export function streamEvents(text: string): { id: string; event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .map((chunk) => chunk.split('\n').filter((line) => line !== '' && !line.startsWith(':')))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const field = (name: string) =>
        lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
      return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) };
    });
}

/** An event stream's text cut after its first `count` events. */
export function firstEvents(text: string, count: number): string {
  const chunks = text.split('\n\n');
  const kept: string[] = [];
  let events = 0;
  for (const chunk of chunks) {
    if (events === count) break;
    kept.push(chunk);
    if (chunk.split('\n').some((line) => line.startsWith('data: '))) events += 1;
  }
  return `${kept.join('\n\n')}\n\n`;
}

/**
 * JSON as the document shows it: a value that fits on a line stays on one, anything longer
 * opens up one level at a time.
 */
export function formatJson(value: unknown, indent = '', width = 100): string {
  const inline = JSON.stringify(value, null, 1)
    .replace(/\n\s*/g, ' ')
    .replace(/([[{]) /g, '$1')
    .replace(/ ([\]}])/g, '$1');
  if (indent.length + inline.length <= width || value === null || typeof value !== 'object') {
    return inline;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => inner + formatJson(item, inner, width)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, item]) =>
      `${inner}${JSON.stringify(key)}: ${formatJson(item, inner, width - key.length - 4)}`,
  );
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

/**
 * The answer to write into the document: `actual`, but keeping each documented value it matches
 * (a made-up id of the same kind, say), so rewriting the document changes only what changed.
 */
export function keepDocumented(documented: unknown, actual: unknown): unknown {
  if (difference(documented, actual, false) === '') return documented;
  if (Array.isArray(documented) && Array.isArray(actual)) {
    return actual.map((item, i) =>
      i < documented.length ? keepDocumented(documented[i], item) : item,
    );
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(documented) && isObject(actual)) {
    return Object.fromEntries(
      Object.entries(actual).map(([key, item]) => [
        key,
        key in documented ? keepDocumented(documented[key], item) : item,
      ]),
    );
  }
  return actual;
}
