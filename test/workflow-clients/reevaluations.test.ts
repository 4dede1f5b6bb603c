import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, ReevaluationClient } from '../../src/workflow-clients/index.js';

// A client that never connects: every request here is refused before it would reach Temporal.
const reevaluations = new ReevaluationClient(new Client(), { id: 'store' }, 'queue');
const request = { selector: { kind: 'report' }, evaluators: ['tone@1'] };

describe('a batch re-evaluation', () => {
  it('is refused before Temporal when its batch id or workspace breaks the id rule', async () => {
    await expect(reevaluations.start('ws', { ...request, batchId: 'b\u0000' })).rejects.toThrow(
      new InvalidRequestError(
        'batchId: an id cannot hold a control character (U+0000–U+001F, U+007F–U+009F)',
      ),
    );
    await expect(
      reevaluations.start('ws', { ...request, batchId: 'b'.repeat(129) }),
    ).rejects.toThrow(InvalidRequestError);
    await expect(reevaluations.start('\ud800', request)).rejects.toThrow(
      new InvalidRequestError(
        'workspaceId: an id must be well-formed Unicode (it holds a lone surrogate)',
      ),
    );
  });
});

describe('a backfill or a budget', () => {
  it('is refused before Temporal with neither or both selections, a bad sample or budget', async () => {
    await expect(reevaluations.start('ws', { evaluators: ['tone@1'] })).rejects.toThrow(
      new InvalidRequestError('name artifact versions (selector) or a backfill (selection)'),
    );
    await expect(
      reevaluations.start('ws', { ...request, selection: { kind: 'turn' } }),
    ).rejects.toThrow(InvalidRequestError);
    await expect(
      reevaluations.start('ws', {
        evaluators: ['tone@1'],
        selection: { kind: 'message', sampleFraction: 0 },
      }),
    ).rejects.toThrow(new InvalidRequestError('sampleFraction is above 0 and at most 1, not 0'));
    await expect(reevaluations.start('ws', { ...request, maxCostUsd: -1 })).rejects.toThrow(
      new InvalidRequestError('maxCostUsd is a positive amount, not -1'),
    );
    await expect(reevaluations.setBudget('ws', 'b', Number.NaN)).rejects.toThrow(
      new InvalidRequestError('maxCostUsd is a positive amount, not NaN'),
    );
    // Below half a nano-dollar, the unit spend is counted in, a budget would be $0.
    await expect(reevaluations.setBudget('ws', 'b', 4e-10)).rejects.toThrow(
      new InvalidRequestError('maxCostUsd is at least a nano-dollar (0.000000001), not 4e-10'),
    );
  });
});
