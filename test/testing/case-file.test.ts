import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCaseFile } from '../../src/testing/index.js';

// Each malformed case file gets one line: where (the case by number and name, the field's path)
// and what, in words, with the value found.

const validCase = {
  name: 'a thread is created',
  actor: { kind: 'system', name: 'host' },
  command: { type: 'create_thread', thread_id: 't1' },
  expect: { outcome: { type: 'recorded' } },
};

function problemOf(text: string): string {
  try {
    parseCaseFile(text, 'cases.json');
  } catch (error) {
    expect(error).toBeInstanceOf(CaseFileError);
    const { file, problem, message } = error as CaseFileError;
    expect(file).toBe('cases.json');
    expect(message).toBe(`cases.json: ${problem}`);
    expect(message).not.toContain('\n');
    return problem;
  }
  throw new Error('expected a CaseFileError');
}

const withCase = (testCase: Record<string, unknown>) =>
  JSON.stringify({ description: 'd', cases: [validCase, { ...validCase, ...testCase }] });

describe('a case file', () => {
  it('parses when well formed, with its defaults filled in', () => {
    const file = parseCaseFile(JSON.stringify({ description: 'd', cases: [validCase] }), 'x');
    expect(file.cases[0]?.given.threads).toEqual([]);
    expect(file.cases[0]?.expect).toEqual({ outcome: { type: 'recorded' } });
  });

  it.each([
    ['not JSON', '{"description": ', /^not JSON: \S/],
    ['a list', '[1, 2]', 'not a case file: expected an object, got [1,2]'],
    [
      'without a description, and with no list of cases',
      '{"cases": 3}',
      'not a case file: description: missing (expected a string) (and 1 more problem)',
    ],
    [
      'without cases',
      '{"description": "d", "cases": []}',
      'not a case file: cases: needs at least 1 item',
    ],
    [
      'with a case that is not an object',
      '{"description": "d", "cases": [5]}',
      'case 1: expected an object, got 5',
    ],
    [
      'with a case without a name',
      withCase({ name: undefined }),
      'case 2: name: missing (expected a string)',
    ],
    [
      'with an expectation of neither kind',
      withCase({ expect: {} }),
      'case 2 ("a thread is created"): expect: needs exactly one of "rejection" or "outcome"',
    ],
    [
      'with events expected of a rejection',
      withCase({ expect: { rejection: { type: 'conflict' }, events: [] } }),
      'case 2 ("a thread is created"): expect.events: goes with "outcome"; a rejection appends nothing',
    ],
    [
      'with an unknown expectation field',
      withCase({ expect: { outcome: {}, event: [] } }),
      'case 2 ("a thread is created"): expect: unknown field "event"',
    ],
    [
      'with a given run in an unknown status',
      withCase({ given: { runs: [{ id: 'r1', thread_id: 't1', status: 'gone' }] } }),
      'case 2 ("a thread is created"): given.runs[0].status: expected one of "running", "paused", "completed", "stopped", "failed", got "gone"',
    ],
    [
      'with a given artifact of version 0',
      withCase({ given: { artifacts: [{ id: 'a1', kind: 'doc', version: 0 }] } }),
      'case 2 ("a thread is created"): given.artifacts[0].version: expected at least 1, got 0',
    ],
    [
      'with given feedback by an unknown kind of actor',
      withCase({
        given: {
          feedback: [
            {
              actor: { kind: 'robot' },
              feedback_type: 'f',
              target: { kind: 'thread', thread_id: 't1' },
            },
          ],
        },
      }),
      'case 2 ("a thread is created"): given.feedback[0].actor.kind: expected one of "user", "agent", "system", "evaluator", "reviewer", got "robot"',
    ],
  ])('that is %s gets one line naming the problem', (_, text, problem) => {
    if (typeof problem === 'string') expect(problemOf(text)).toBe(problem);
    else expect(problemOf(text)).toMatch(problem);
  });
});
