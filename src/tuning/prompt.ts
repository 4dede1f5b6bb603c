// A judge version's prompt: the messages an OpenAI-compatible chat completion is sent. Without
// examples they are exactly what the built-in `llm_judge` sends (the core's system message of the
// rubric and the reply format; the target as the user's); each example adds the target as a user
// message and the verdict it teaches as the assistant's reply, before the target judged.

import { judgeSystemMessage } from '../core/index.js';
import type { JudgeExample } from './version.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/**
 * The messages for judging `targetText` (the target as the judge reads it) with a version's
 * rubric and examples, the examples in the version's order.
 */
export function judgeMessages(
  version: { readonly rubric: string; readonly examples: readonly JudgeExample[] },
  targetText: string,
): ChatMessage[] {
  return [
    { role: 'system', content: judgeSystemMessage(version.rubric) },
    ...version.examples.flatMap(exampleMessages),
    { role: 'user', content: targetText },
  ];
}

/** The characters of a version's prompt for judging `targetText`: what its tokens grow with. */
export const promptChars = (
  version: Parameters<typeof judgeMessages>[0],
  targetText: string,
): number => judgeMessages(version, targetText).reduce((sum, m) => sum + m.content.length, 0);

/** The characters an example adds to a prompt: what the examples' size budget counts. */
export const exampleChars = (example: JudgeExample): number =>
  exampleMessages(example).reduce((sum, message) => sum + message.content.length, 0);

/** An example as a question and its answer; the reviewers' notes follow the target's text. */
function exampleMessages(example: JudgeExample): ChatMessage[] {
  const notes = example.reviewers.flatMap((r) => (r.note ? [`A reviewer's note: ${r.note}`] : []));
  return [
    { role: 'user', content: [example.text, ...notes].join('\n\n') },
    { role: 'assistant', content: JSON.stringify(example.expectedVerdict) },
  ];
}
