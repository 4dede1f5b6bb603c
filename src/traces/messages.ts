import type { Attributes, AttributeValue, SpanRecord } from './span.js';

// A span's conversation as text, whichever convention wrote it: the current GenAI attributes
// (`gen_ai.input.messages`/`gen_ai.output.messages`, a JSON string or a structured value), their
// older forms (OpenLLMetry's flattened `gen_ai.prompt.N.*`/`gen_ai.completion.N.*`, the
// `gen_ai.content.*` and per-message events, `gen_ai.client.inference.operation.details`), OpenInference (`llm.input_messages.N.*`,
// `llm.output_messages.N.*`, `output.value`) and the Vercel AI SDK (`ai.prompt`,
// `ai.prompt.messages`, `ai.response.text`).

export interface TextMessage {
  role: string;
  text: string;
}

/** A value sent either as a JSON string or as the structured value itself. */
export function structured(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value !== 'string') return value;
  const trimmed = value.trimStart();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return value;
  try {
    return JSON.parse(value) as AttributeValue;
  } catch {
    return value;
  }
}

export const isRecord = (value: unknown): value is Record<string, AttributeValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a message's content: a string, GenAI parts, or OpenAI/Vercel content parts. */
function textOf(content: AttributeValue | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (part.type !== undefined && part.type !== 'text' && part.type !== 'output_text') return '';
      const text = part.content ?? part.text;
      return typeof text === 'string' ? text : '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** Messages in GenAI's shape (`{role, parts}`) or OpenAI's and Vercel's (`{role, content}`). */
function messagesOf(value: AttributeValue | undefined): TextMessage[] {
  const list = structured(value);
  if (!Array.isArray(list)) return [];
  return list.flatMap((message) => {
    if (!isRecord(message) || typeof message.role !== 'string') return [];
    return [{ role: message.role, text: textOf(message.parts ?? message.content) }];
  });
}

/**
 * Flattened messages under `prefix.N.`: `role` and `content`, or `contents.M.…text` when there is
 * no `content` (OpenInference's OpenAI Agents instrumentation writes an answer both ways).
 */
function flattened(attributes: Attributes, prefix: string, inner: string): TextMessage[] {
  const byIndex = new Map<number, { role?: string; content?: string; parts: string[] }>();
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d+)\.(.*)$/.exec(key.slice(prefix.length));
    if (!match || typeof value !== 'string') continue;
    const index = Number(match[1]);
    const field = (match[2] ?? '').replace(inner, '');
    const entry = byIndex.get(index) ?? { parts: [] };
    if (field === 'role') entry.role = value;
    else if (field === 'content') entry.content = value;
    else if (/^contents\.\d+\.message_content\.text$/.test(field)) entry.parts.push(value);
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, { role, content, parts }]) =>
      role ? [{ role, text: content ?? parts.join('\n') }] : [],
    );
}

/** The Vercel AI SDK's `ai.prompt`: `{system?, prompt}` or `{system?, messages}`. */
function vercelPrompt(value: AttributeValue | undefined): TextMessage[] {
  const prompt = structured(value);
  if (!isRecord(prompt)) return [];
  if (typeof prompt.prompt === 'string') return [{ role: 'user', text: prompt.prompt }];
  return messagesOf(prompt.messages);
}

function eventMessages(span: SpanRecord, kind: 'input' | 'output'): TextMessage[] {
  const found: TextMessage[] = [];
  for (const event of span.events) {
    const a = event.attributes;
    if (event.name === 'gen_ai.client.inference.operation.details') {
      found.push(
        ...messagesOf(a[kind === 'input' ? 'gen_ai.input.messages' : 'gen_ai.output.messages']),
      );
    } else if (kind === 'input' && event.name === 'gen_ai.content.prompt') {
      found.push(...messagesOf(a['gen_ai.prompt']));
    } else if (kind === 'output' && event.name === 'gen_ai.content.completion') {
      found.push(...messagesOf(a['gen_ai.completion']));
    } else if (
      kind === 'input' &&
      /^gen_ai\.(system|user|assistant|tool)\.message$/.test(event.name)
    ) {
      const role = event.name.split('.')[1] ?? 'user';
      found.push({ role, text: textOf(structured(a.content)) });
    } else if (kind === 'output' && event.name === 'gen_ai.choice') {
      const message = structured(a.message);
      found.push({ role: 'assistant', text: isRecord(message) ? textOf(message.content) : '' });
    }
  }
  return found;
}

/** The history a span was given (a model call's whole input), oldest first. */
export function inputMessages(span: SpanRecord): TextMessage[] {
  const a = span.attributes;
  const candidates = [
    messagesOf(a['gen_ai.input.messages']),
    flattened(a, 'llm.input_messages.', 'message.'),
    flattened(a, 'gen_ai.prompt.', ''),
    messagesOf(a['ai.prompt.messages']),
    vercelPrompt(a['ai.prompt']),
    eventMessages(span, 'input'),
  ];
  return candidates.find((messages) => messages.length > 0) ?? [];
}

/** What a span answered, as text; null when it carries no answer. */
export function outputText(span: SpanRecord): string | null {
  const a = span.attributes;
  const messages = [
    messagesOf(a['gen_ai.output.messages']),
    flattened(a, 'llm.output_messages.', 'message.'),
    flattened(a, 'gen_ai.completion.', ''),
    eventMessages(span, 'output'),
  ].find((found) => found.some((m) => m.text !== ''));
  if (messages) {
    const answers = messages.filter((m) => m.role === 'assistant' && m.text !== '');
    return (answers.at(-1) ?? messages.at(-1))?.text ?? null;
  }
  for (const key of ['ai.response.text', 'output.value']) {
    const value = a[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** The turn's new input: the user's messages after the history's last answer. */
export function newUserInput(history: readonly TextMessage[]): string[] {
  const lastAnswer = history.findLastIndex((m) => m.role !== 'user' && m.role !== 'system');
  return history
    .slice(lastAnswer + 1)
    .filter((m) => m.role === 'user' && m.text !== '')
    .map((m) => m.text);
}
