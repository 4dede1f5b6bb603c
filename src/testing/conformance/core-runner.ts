import {
  admit,
  applyChanges,
  changesOf,
  decideCommand,
  type Envelope,
  emptyState,
  type FeedbackTypeRegistry,
  scopeOf,
  type WorkspaceState,
} from '../../core/index.js';
import type { Outcome } from '../../store/index.js';
import type { ConformanceCase } from './case-file.js';
import { conformanceFeedbackTypes } from './feedback-types.js';
import { givenCommands } from './given-commands.js';
import { expectationMismatches } from './matcher.js';

// The cases run on the pure core alone, the way reflexr's conformance test runs them: state goes
// through JSON between every envelope, so decide and evolve can only rely on what a store keeps.

const roundTrip = (state: WorkspaceState): WorkspaceState => {
  const json = JSON.stringify(
    Object.fromEntries(Object.entries(state).map(([view, map]) => [view, [...map]])),
  );
  const parsed = JSON.parse(json) as Record<string, [string, unknown][]>;
  const fresh = emptyState();
  for (const [view, entries] of Object.entries(parsed)) {
    const target = fresh[view as keyof WorkspaceState] as Map<string, unknown>;
    for (const [key, value] of entries) target.set(key, value);
  }
  return fresh;
};

/**
 * Runs one case on the core alone (no store), its state serialized between envelopes; returns
 * its mismatches (none: it passed).
 *
 * @param feedbackTypes What the case is written against; the conformance types by default.
 */
/** The core runner's clock: a second per event from 2026-01-01. */
const clockAt = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();

export function runCaseOnCore(
  testCase: ConformanceCase,
  feedbackTypes: FeedbackTypeRegistry = conformanceFeedbackTypes(),
): string[] {
  const scoreConfigs = new Map(
    testCase.given.score_configs.map((c) => [c.name, { archived: c.archived }]),
  );
  let state = emptyState();
  let seq = 0;
  const execute = (actor: unknown, command: unknown): Outcome => {
    const admitted = admit(actor, command);
    if (!admitted.ok) return admitted.rejection;
    const parsed =
      admitted.command.type === 'post_message' && admitted.command.message_id === undefined
        ? { ...admitted.command, message_id: `m-${seq + 1}` }
        : admitted.command;
    const now = clockAt(seq + 1);
    const context = { feedbackTypes, scoreConfigs, now };
    const decision = decideCommand(state, admitted.actor, parsed, context);
    if (decision.type !== 'recorded') return decision;
    const envelopes: Envelope[] = decision.events.map((event) => {
      seq += 1;
      const envelope: Envelope = {
        seq,
        id: `evt-${seq}`,
        ts: clockAt(seq),
        workspace_id: 'core',
        ...scopeOf(event),
        actor: admitted.actor,
        event,
      };
      state = applyChanges(state, changesOf(state, envelope));
      state = roundTrip(state);
      return envelope;
    });
    return { ...decision, events: envelopes };
  };
  for (const step of givenCommands(testCase.given)) {
    const built = execute(step.actor, step.command);
    if (built.type !== 'recorded')
      return [`given: ${JSON.stringify(step.command)} was refused: ${built.message}`];
  }
  return expectationMismatches(testCase.expect, execute(testCase.actor, testCase.command));
}
