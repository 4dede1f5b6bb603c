// A run's steps: each model call and tool call inside it, in the order they started. They are
// read from the spans an agent exported (docs/traces.md#steps), never sent as commands: the
// stored spans are the record, and a step is what they say.

export type StepKind = 'model' | 'tool';

export interface RunStep {
  kind: StepKind;
  /** The span it was read from (16 lowercase hex digits). */
  span_id: string;
  /** The span's name, e.g. `chat gpt-4o` or `execute_tool lookup`. */
  name: string;
  /** The GenAI operation: `chat`, `execute_tool`, … */
  operation: string;
  /** A model call's model (the one that answered, else the one asked for). */
  model: string | null;
  provider: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  started_at: string;
  ended_at: string;
  status: 'ok' | 'error';
  /** Why it failed, from the span's status, `error.type` and exception events. */
  error: string | null;
  tool_name: string | null;
  /** The model's id for the tool call, which joins a tool span to the call that asked for it. */
  call_id: string | null;
  /** A tool call's arguments and result as text (JSON as sent), cut with a marker when long. */
  arguments: string | null;
  result: string | null;
}

/** Steps past this many are counted, not listed: a run's page and subject stay bounded. */
export const MAX_STEPS_PER_RUN = 1000;
/** A step's arguments, result or error past this many UTF-8 bytes is cut, with a marker. */
export const STEP_TEXT_BYTES = 16 * 1024;

export interface RunSteps {
  steps: RunStep[];
  /** Steps beyond `MAX_STEPS_PER_RUN`, not listed. */
  omitted: number;
}
