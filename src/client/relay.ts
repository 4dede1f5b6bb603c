import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import {
  type Envelope,
  type EvaluationRule,
  rulesInForce,
  type StoredEvaluationRule,
} from '../core/index.js';
import { type EvaluationPlan, planOf } from '../evaluators/index.js';
import type { Store, Subscription } from '../store/index.js';
import type { evaluateRun } from '../workflows/evaluate-run.js';
import {
  evaluateRunWorkflowId,
  type RunEvent,
  runEventSignal,
} from '../workflows/evaluate-run-messages.js';
import { feedbackAppendedSignal, mirrorWorkflowId } from '../workflows/mirror-messages.js';

export interface RelayOptions {
  store: Store;
  client: Client;
  taskQueue: string;
  workspaceId: string;
  /**
   * The app's default rules. A run's workflow pins the plan of these and the workspace's own
   * rules as they stood at the run's start.
   */
  rules: readonly EvaluationRule[];
  /** Evaluate messages as they are posted. */
  online?: boolean;
  abandonAfterMs?: number;
  /** The store cursor that remembers how far the relay got (default `trigger-relay`). */
  cursor?: string;
}

/**
 * Follows a workspace's log and turns its events into workflow signals: a run's lifecycle,
 * messages and artifact versions go to its `evaluateRun` (started by the first), feedback to the
 * workspace's `mirror`. The cursor moves only after Temporal accepted a signal, so an outage
 * delays evaluation but never loses a trigger; workflows drop the repeats by seq.
 */
export class TriggerRelay {
  private readonly cursor: string;
  /**
   * The workspace's own rules as of the last event relayed, loaded at the first run event and
   * kept current by the rule events that follow, so each run's plan is the one at its seq.
   */
  private workspaceRules: Map<string, StoredEvaluationRule> | null = null;

  constructor(private readonly options: RelayOptions) {
    this.cursor = options.cursor ?? 'trigger-relay';
  }

  /** Relays every event after the cursor up to the log's head; returns how many. */
  async drain(): Promise<number> {
    const { store, workspaceId } = this.options;
    let relayed = 0;
    for (;;) {
      const after = await store.cursor(workspaceId, this.cursor);
      const page = await store.events({ workspace_id: workspaceId, after, limit: 500 });
      if (page.length === 0) return relayed;
      for (const envelope of page) await this.relay(envelope);
      relayed += page.length;
    }
  }

  /** Relays from the cursor, then follows new events until closed. */
  async follow(): Promise<Subscription> {
    const { store, workspaceId } = this.options;
    const after = await store.cursor(workspaceId, this.cursor);
    return store.subscribe({ workspace_id: workspaceId, after }, (envelope) =>
      this.relay(envelope),
    );
  }

  /** Signals one event's workflow, then saves the cursor past it. */
  async relay(envelope: Envelope): Promise<void> {
    await this.signal(envelope);
    await this.options.store.saveCursor(envelope.workspace_id, this.cursor, envelope.seq);
  }

  private async signal(envelope: Envelope): Promise<void> {
    const { event, seq } = envelope;
    switch (event.type) {
      case 'evaluation_rule_set': {
        const { type: _type, ...rule } = event;
        this.workspaceRules?.set(rule.evaluator, {
          ...rule,
          set_by: '',
          set_at: envelope.ts,
          seq,
        });
        return;
      }
      case 'run_started':
        return this.toRun(event.run_id, event.thread_id, {
          seq,
          type: event.resumed ? 'resumed' : 'started',
        });
      case 'run_paused':
        return this.toRun(event.run_id, event.thread_id, { seq, type: 'paused' });
      case 'run_ended':
        return this.toRun(event.run_id, event.thread_id, {
          seq,
          type: 'ended',
          status: event.status,
        });
      case 'message_posted':
        if (event.run_id === null) return;
        return this.toRun(event.run_id, event.thread_id, {
          seq,
          type: 'message',
          message_id: event.message_id,
          role: event.role,
        });
      case 'artifact_put':
        if (event.run_id === null || event.thread_id === null) return;
        return this.toRun(event.run_id, event.thread_id, {
          seq,
          type: 'artifact',
          artifact_id: event.artifact_id,
          version: event.version,
        });
      case 'feedback_given':
      case 'feedback_withdrawn':
      case 'rating_deleted':
      case 'score_recorded': {
        const { client, taskQueue, workspaceId } = this.options;
        await client.workflow.signalWithStart('mirror', {
          workflowId: mirrorWorkflowId(workspaceId),
          taskQueue,
          args: [{ workspaceId }],
          signal: feedbackAppendedSignal,
          signalArgs: [{ seq }],
        });
        return;
      }
      default:
        return;
    }
  }

  /** The plan of the rules in force at `seq`. */
  private async planAt(seq: number): Promise<EvaluationPlan> {
    const { store, workspaceId, rules } = this.options;
    if (this.workspaceRules === null) {
      const loaded = await store.rulesAt(workspaceId, seq);
      this.workspaceRules = new Map(loaded.map((rule) => [rule.evaluator, rule]));
    }
    return planOf(rulesInForce(rules, this.workspaceRules.values()), workspaceId);
  }

  private async toRun(runId: string, threadId: string, event: RunEvent): Promise<void> {
    const { client, taskQueue, workspaceId, online, abandonAfterMs } = this.options;
    const plan = await this.planAt(event.seq);
    try {
      await client.workflow.signalWithStart<typeof evaluateRun, [RunEvent]>('evaluateRun', {
        workflowId: evaluateRunWorkflowId(workspaceId, runId),
        taskQueue,
        args: [{ workspaceId, runId, threadId, plan, online, abandonAfterMs }],
        signal: runEventSignal,
        signalArgs: [event],
        // A run evaluated and closed is not started again by a late event.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
