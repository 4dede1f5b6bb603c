// What an LLM judge is told after its rubric: the verdict's shape it replies with. One line, for
// the built-in `llm_judge` and for a tuned judge version's prompt alike, so the two ask the same.

/** The reply format the built-in judge asks for, after its rubric. */
const JUDGE_REPLY_FORMAT =
  'Reply with a JSON object {"score": number from 0 to 1, "passed": boolean, "reasoning": string}.';

/** A judge's system message: its rubric, then the reply format. */
export const judgeSystemMessage = (rubric: string): string => `${rubric}\n${JUDGE_REPLY_FORMAT}`;
