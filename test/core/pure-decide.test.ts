import { describe, expect, it } from 'vitest';
import {
  admit,
  applyChanges,
  changesOf,
  type DecideContext,
  decideCommand,
  type Envelope,
  emptyState,
  needsOf,
  scopeOf,
  targetKey,
  type WorkspaceState,
} from '../../src/core/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { sampleSteps } from './arbitraries.js';

// What makes the store correct while loading only a few rows per command: deciding on just the
// entities `needsOf` names gives the same decision as deciding on the whole workspace.

function restrictTo(state: WorkspaceState, needs: ReturnType<typeof needsOf>): WorkspaceState {
  const partial = emptyState();
  const copy = <T>(from: Map<string, T>, to: Map<string, T>, keys: string[]) => {
    for (const key of keys) {
      const value = from.get(key);
      if (value !== undefined) to.set(key, value);
    }
  };
  copy(state.threads, partial.threads, needs.threads);
  copy(state.runs, partial.runs, needs.runs);
  copy(state.artifacts, partial.artifacts, needs.artifacts);
  copy(state.messages, partial.messages, needs.messages);
  for (const { thread_id, message_id } of needs.ratingsOn) {
    const key = targetKey({ kind: 'message', thread_id, message_id, run_id: null });
    for (const record of state.feedback.values()) {
      if (record.rating && record.target_key === key) partial.feedback.set(record.id, record);
    }
  }
  for (const { participant, feedback_type, target } of needs.ownFeedback) {
    const key = targetKey(target);
    for (const record of state.feedback.values()) {
      if (
        record.participant === participant &&
        record.feedback_type === feedback_type &&
        record.target_key === key
      ) {
        partial.feedback.set(record.id, record);
      }
    }
  }
  return partial;
}

describe('the pure core', () => {
  it('decides on the entities a command needs exactly as on the whole workspace, for 10,000 generated commands', () => {
    const context: DecideContext = {
      feedbackTypes: conformanceFeedbackTypes(),
      scoreConfigs: new Map([
        ['review', { archived: false }],
        ['escalation', { archived: false }],
      ]),
      now: '2026-01-01T00:01:00Z',
    };
    const state = emptyState();
    let seq = 0;
    let recorded = 0;
    const reviews = { replaced: 0, withdrawn: 0 };
    for (const step of sampleSteps(10_000)) {
      const admitted = admit(step.actor, step.command);
      if (!admitted.ok) continue;
      const { actor } = admitted;
      const command =
        admitted.command.type === 'post_message' && admitted.command.message_id === undefined
          ? { ...admitted.command, message_id: `auto-${seq}` }
          : admitted.command;
      // Deciding never changes the state it reads (checked now and then: the copy is costly).
      const before =
        seq % 50 === 0 ? JSON.stringify([...state.runs, ...state.feedback]) : undefined;
      const whole = decideCommand(state, actor, command, context);
      const partial = decideCommand(
        restrictTo(state, needsOf(actor, command, context.feedbackTypes)),
        actor,
        command,
        context,
      );
      expect(partial).toEqual(whole);
      if (before !== undefined)
        expect(JSON.stringify([...state.runs, ...state.feedback])).toBe(before);
      if (whole.type !== 'recorded') continue;
      recorded += 1;
      for (const event of whole.events) {
        if (event.type === 'feedback_given' && actor.kind === 'reviewer' && event.replaces) {
          reviews.replaced += 1;
        }
        if (event.type === 'feedback_withdrawn') reviews.withdrawn += 1;
        seq += 1;
        const envelope: Envelope = {
          seq,
          id: `e${seq}`,
          ts: `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z`,
          workspace_id: 'w',
          ...scopeOf(event),
          actor,
          event,
        };
        applyChanges(state, changesOf(state, envelope));
      }
    }
    // The sample reaches deep enough to mean something: entities of every kind, ratings, and
    // reviewers' feedback replaced and withdrawn.
    expect(recorded).toBeGreaterThan(500);
    expect(state.runs.size).toBeGreaterThan(0);
    expect(state.artifacts.size).toBeGreaterThan(0);
    expect([...state.feedback.values()].some((record) => record.rating)).toBe(true);
    expect(state.messages.size).toBeGreaterThan(0);
    expect([...state.threads.values()].some((thread) => thread.ended_at)).toBe(true);
    expect(reviews.replaced).toBeGreaterThan(0);
    expect(reviews.withdrawn).toBeGreaterThan(0);
    expect([...state.artifactVersions.values()].some((version) => version.run_id !== null)).toBe(
      true,
    );
  });
});
