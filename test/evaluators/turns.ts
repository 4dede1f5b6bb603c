import type { RunStep } from '../../src/core/index.js';
import type { Subject } from '../../src/evaluators/index.js';

// A turn with steps, written by hand for the evaluators' tests.

export const step = (fields: Partial<RunStep>): RunStep => ({
  kind: 'tool',
  span_id: '00000000000000a1',
  name: 'execute_tool',
  operation: 'execute_tool',
  model: null,
  provider: null,
  input_tokens: null,
  output_tokens: null,
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:00:01.000Z',
  status: 'ok',
  error: null,
  tool_name: null,
  call_id: null,
  arguments: null,
  result: null,
  ...fields,
});

export const turnWith = (steps: RunStep[]): Subject => ({
  kind: 'turn',
  run: { run_id: 'r', thread_id: 't', status: 'completed', trace_ids: [] },
  messages: [{ message_id: 'a', thread_id: 't', run_id: 'r', role: 'assistant', content: 'Done.' }],
  steps,
});
