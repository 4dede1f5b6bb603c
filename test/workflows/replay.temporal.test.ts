import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { workflowBundle } from '../support/temporal.js';

// Histories recorded from the workflow tests (EVALFLOW_RECORD_HISTORIES=1) replay against the
// current workflow code: a change that breaks determinism fails here, before it breaks runs in
// flight. No server is needed.
const dir = fileURLToPath(new URL('./histories/', import.meta.url));
const histories = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('replaying recorded histories', () => {
  // A workflow may have several (`mirror.json`, `mirror.deletes.json`): one per path worth pinning.
  it('has a history for every workflow', () => {
    expect([...new Set(histories.map((file) => file.split('.')[0]))].sort()).toEqual([
      'evaluateRun',
      'evaluateThread',
      'mirror',
      'reevaluate',
      'review',
    ]);
  });

  for (const file of histories) {
    it(`replays ${file} without a determinism violation`, async () => {
      const history = JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
      await Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, file);
    });
  }
});
