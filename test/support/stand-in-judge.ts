import type { IncomingMessage } from 'node:http';

// What the tests' stand-ins for an OpenAI-compatible judge read of a request (no model can run
// here): the chat completion asked for, and whether its examples taught the judged answer as
// failing (a stand-in whose verdict depends on the examples in its prompt, as a model's does).

/** A chat completion request, as the stand-ins read it. */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  [field: string]: unknown;
}

/** The request's JSON body. */
export async function readChat(request: IncomingMessage): Promise<ChatRequest> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as ChatRequest;
}

/**
 * Whether an example before the judged answer (the last message) has its text and was answered
 * as failing: a tuned judge's example taught it.
 */
export function taughtFailing(messages: ChatRequest['messages']): boolean {
  const judged = messages.at(-1)?.content ?? '';
  return messages.some(
    (message, i) =>
      message.role === 'user' &&
      i < messages.length - 1 &&
      message.content.startsWith(judged) &&
      JSON.parse(messages[i + 1]?.content ?? '{}').passed === false,
  );
}
