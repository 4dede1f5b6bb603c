import { DEFAULT_LIMITS, utf8Bytes } from '../core/index.js';

/**
 * A message's content within the default limit: a span's long content is cut, with a marker that
 * says how much, rather than the message refused whole.
 */
export function boundedContent(
  text: string,
  maxBytes = DEFAULT_LIMITS.messageContentBytes,
): string {
  const bytes = utf8Bytes(text);
  if (bytes <= maxBytes) return text;
  const kept = new TextDecoder()
    .decode(new TextEncoder().encode(text).slice(0, maxBytes - 100))
    .replace(/\uFFFD$/, '');
  return `${kept}\n[… cut by evalflow: ${bytes - utf8Bytes(kept)} more bytes]`;
}
