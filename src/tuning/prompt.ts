// A judge version's prompt: the messages an OpenAI-compatible chat completion is sent. Without
// examples they are exactly what the built-in `llm_judge` sends (its rubric, then the reply
// format, as the system message; the target as the user's); each example adds the target as a
// user message and the verdict it teaches as the assistant's reply, before the target judged.

import type { JudgeExample, JudgeVersion } from './version.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The reply format the built-in judge asks for, after its rubric. */
export const JUDGE_REPLY_FORMAT =
  'Reply with a JSON object {"score": number from 0 to 1, "passed": boolean, "reasoning": string}.';

/**
 * The messages for judging `targetText` (the target as the judge reads it) with a version's
 * rubric and examples, the examples in the version's order.
 */
export function judgeMessages(
  version: Pick<JudgeVersion, 'rubric' | 'examples'>,
  targetText: string,
  replyFormat: string = JUDGE_REPLY_FORMAT,
): ChatMessage[] {
  return [
    { role: 'system', content: `${version.rubric}\n${replyFormat}` },
    ...version.examples.flatMap(exampleMessages),
    { role: 'user', content: targetText },
  ];
}

/** An example as a question and its answer; the reviewers' notes follow the target's text. */
function exampleMessages(example: JudgeExample): ChatMessage[] {
  const notes = example.reviewers.flatMap((r) => (r.note ? [`A reviewer's note: ${r.note}`] : []));
  return [
    { role: 'user', content: [example.text, ...notes].join('\n\n') },
    { role: 'assistant', content: JSON.stringify(example.expectedVerdict) },
  ];
}
