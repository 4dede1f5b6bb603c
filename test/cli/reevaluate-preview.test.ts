import { describe, expect, it } from 'vitest';
import { previewLines } from '../../src/cli/commands/reevaluate.js';
import {
  type ReevaluationPreview,
  wirePreview,
} from '../../src/workflow-clients/reevaluation-preview.js';

// A batch's preview as `reevaluate start --dry-run` prints it and the API answers it: what it
// counts by name, an estimate or why there is none, and no float noise.

/**
 * Two versions: one measured (3 attempts of 1.1 ms, one slot), one never run and with no
 * estimate, whose duration assumes the default attempt.
 */
const preview: ReevaluationPreview = {
  targets: 3,
  versions: [
    {
      evaluator: 'helpful@3',
      targets: 3,
      costPerEvaluationNanos: 3_600_000,
      costNanos: 10_800_000,
      costBasis: 'recorded',
      meanAttemptMs: 1.1,
      recordedAttempts: 3,
      durationBasis: 'recorded',
      durationMs: 3 * 1.1,
    },
    {
      evaluator: 'tone@1',
      targets: 3,
      costPerEvaluationNanos: null,
      costNanos: null,
      costBasis: 'unknown',
      meanAttemptMs: null,
      recordedAttempts: 0,
      durationBasis: 'default',
      durationMs: 6_180,
    },
  ],
  costNanos: null,
  durationMs: 6_230,
  durationBasis: 'default',
};

describe('a dry run as text', () => {
  it('names the turns it counts, says why an estimate is missing, and what a duration is from', () => {
    expect(previewLines(preview, 'turn')).toEqual([
      '3 turns',
      'helpful@3: 3 evaluations × $0.0036 = $0.0108, about 0s from 3 recorded attempts',
      'tone@1: 3 evaluations, cost not estimated: no cost of it recorded in this workspace, and it declares no estimatedCostUsd, about 6s by default: no attempt of it recorded in this workspace, 2s an attempt assumed',
      'estimated cost none (tone@1 not estimated), duration 6s (by default)',
    ]);
  });

  it('says when a cost is not the version’s own recorded mean: its base’s, or its declared one', () => {
    const [measured] = preview.versions;
    if (measured === undefined) throw new Error('no version');
    const lines = previewLines(
      {
        ...preview,
        versions: [
          { ...measured, evaluator: 'llm_judge@tuned-1', costBasis: 'base' },
          { ...measured, evaluator: 'tone@2', costBasis: 'declared' },
        ],
      },
      'message',
    );
    expect(lines[1]).toMatch(
      /^llm_judge@tuned-1: 3 evaluations × \$0\.0036 = \$0\.0108 \(through its base’s calls: none of its own recorded in this workspace\), about/,
    );
    expect(lines[2]).toMatch(
      /^tone@2: 3 evaluations × \$0\.0036 = \$0\.0108 \(its declared estimatedCostUsd: none of its own recorded in this workspace\), about/,
    );
  });

  it('names messages, threads and artifact versions, one in the singular', () => {
    const one = { ...preview, targets: 1, versions: [] };
    expect(previewLines(one, 'message')[0]).toBe('1 message');
    expect(previewLines({ ...preview, versions: [] }, 'thread')[0]).toBe('3 threads');
    expect(previewLines({ ...preview, versions: [] }, 'artifact')[0]).toBe('3 artifact versions');
    const single = { ...preview, targets: 1, versions: [{ ...preview.versions[0], targets: 1 }] };
    expect(previewLines(single as ReevaluationPreview, 'message')[1]).toMatch(
      /^helpful@3: 1 evaluation × /,
    );
  });

  it('gives the batch’s estimate when every version has one', () => {
    const known = {
      ...preview,
      versions: preview.versions.slice(0, 1),
      costNanos: 10_800_000,
      durationMs: 125_000,
      durationBasis: 'recorded' as const,
    };
    expect(previewLines(known, 'message').at(-1)).toBe('estimated cost $0.0108, duration 2m05s');
  });
});

describe('a preview on the wire', () => {
  it('rounds milliseconds to a tenth and converts whole nano-dollars once', () => {
    expect(3 * 1.1).toBe(3.3000000000000003);
    const wire = wirePreview({ ...preview, durationMs: 3 * 1.1 });
    expect(wire.durationMs).toBe(3.3);
    expect(wire.versions[0]).toEqual({
      evaluator: 'helpful@3',
      targets: 3,
      costPerEvaluationUsd: 0.0036,
      costUsd: 0.0108,
      costBasis: 'recorded',
      meanAttemptMs: 1.1,
      recordedAttempts: 3,
      durationBasis: 'recorded',
      durationMs: 3.3,
    });
    expect(wire).toMatchObject({ durationBasis: 'default' });
    expect(wire.versions[1]).toMatchObject({ recordedAttempts: 0, durationBasis: 'default' });
    expect(JSON.stringify(wire)).not.toMatch(/\d{6,}/);
  });
});
