import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import {
  type Envelope,
  type EvaluationRule,
  type EvaluatorCatalog,
  modeOf,
  participantOf,
  rulesInForce,
  rulesSetBy,
  type StoredEvaluationRule,
} from '../core/index.js';
import { type EvaluationPlan, planOf, type RunPlan } from '../evaluators/index.js';
import type { RelayObserver } from '../metrics/observers.js';
import type { OperationsLog } from '../metrics/operations-log.js';
import type {
  EvaluationRecords,
  EventLog,
  RuleReads,
  StoreIdentity,
  UndeliveredEntry,
} from '../store/index.js';
import type { evaluateRun } from '../workflows/evaluate-run.js';
import {
  evaluateRunWorkflowId,
  type RunEvent,
  type RunEvents,
  runEventSignal,
} from '../workflows/evaluate-run-messages.js';
import type { evaluateThread } from '../workflows/evaluate-thread.js';
import {
  evaluateThreadWorkflowId,
  type ThreadEvent,
  threadEventSignal,
} from '../workflows/evaluate-thread-messages.js';
import { feedbackAppendedSignal, mirrorWorkflowId } from '../workflows/mirror-messages.js';
import { mapConcurrently } from './concurrently.js';
import { LogFollower } from './log-follower.js';

export interface RelayOptions {
  store: StoreIdentity & Pick<EvaluationRecords, 'ledger'> & EventLog & RuleReads;
  client: Client;
  taskQueue: string;
  workspaceId: string;
  /**
   * The app's default rules. A run's workflow pins the plan of these and the workspace's own
   * rules as they stood at the run's start.
   */
  rules: readonly EvaluationRule[];
  /** Limited evaluators' own task queues, by name (`evaluatorTaskQueues`), pinned in plans. */
  evaluatorTaskQueues?: Readonly<Record<string, string>>;
  /**
   * The deployed versions' feedback types, by which a shadow version finds the live versions it
   * follows (`planOf`); without it a shadow version judges as its own rule says.
   */
  evaluators?: EvaluatorCatalog;
  /** Evaluate messages as they are posted. */
  online?: boolean;
  abandonAfterMs?: number;
  /** The store cursor that remembers how far the relay got (default `RELAY_CURSOR`). */
  cursor?: string;
  /** Told, as one line, of each event no workflow would take (default `console.warn`). */
  onWarning?: (line: string) => void;
  /** Events read per page; the cursor is saved once per page (default 500). */
  pageSize?: number;
  /** Workflows signalled at once while relaying a page (default 64: the server, not the relay, bounds it). */
  concurrency?: number;
  /** Told of each page relayed and of the events none would take (for the metrics). */
  observer?: RelayObserver;
  /** Told of each rule set and version promoted, as the relay meets them (the operations log). */
  log?: OperationsLog;
}

/** The cursor a relay keeps in each workspace by default: how far it has relayed the log. */
export const RELAY_CURSOR = 'trigger-relay';

/** A run's events in one page, for its workflow, in seq order. */
interface RunDelivery {
  workflowId: string;
  runId: string;
  threadId: string;
  items: { envelope: Envelope; event: RunEvent; plan: RunPlan }[];
}

/** A thread's events in one page, for its workflow, in seq order. */
interface ThreadDelivery {
  workflowId: string;
  threadId: string;
  events: ThreadEvent[];
}

type Undelivered = Omit<UndeliveredEntry, 'recorded_at'>;

/**
 * Follows a workspace's log and turns its events into workflow signals: a run's lifecycle,
 * messages and artifact versions go to its `evaluateRun` (started by the first), feedback to the
 * workspace's `mirror`. It works a page at a time: every workflow of the page is signalled, up to
 * `concurrency` at once and each one's events in seq order, then the cursor moves past the page,
 * so an outage delays evaluation but never loses a trigger; workflows drop the repeats by seq.
 * An event whose run's workflow is closed (completed or terminated) can never be delivered: it is
 * recorded in the store's undelivered ledger with the reason, a warning says so, and the cursor
 * moves on.
 */
export class TriggerRelay extends LogFollower {
  /**
   * The workspace's own rules as of the last event relayed, loaded at the first run event and
   * kept current by the rule events that follow, so each run's plan is the one at its seq.
   */
  private workspaceRules: Map<string, StoredEvaluationRule> | null = null;
  /** The plan of those rules, until the next rule event. */
  private plan: EvaluationPlan | null = null;
  /** Whether any of those rules targets threads (enabled or not), until the next rule event. */
  private threadRules: boolean | null = null;

  constructor(private readonly options: RelayOptions) {
    super(options, RELAY_CURSOR);
  }

  protected handlePage(page: readonly Envelope[]): Promise<void> {
    return this.relayPage(page);
  }

  /**
   * Signals the workflows of a page of consecutive events, records the events none would take,
   * then saves the cursor past the page.
   */
  async relayPage(page: readonly Envelope[]): Promise<void> {
    const last = page[page.length - 1];
    if (last === undefined) return;
    const { store, workspaceId, concurrency = 64, observer } = this.options;
    const { runs, threads, mirrorSeq } = await this.sortOut(page);
    const deliveries: (() => Promise<Undelivered[]>)[] = runs.map((run) => () => this.toRun(run));
    for (const thread of threads) deliveries.push(() => this.toThread(thread).then(() => []));
    if (mirrorSeq !== null) deliveries.push(() => this.toMirror(mirrorSeq).then(() => []));
    const undelivered = (await mapConcurrently(deliveries, concurrency, (send) => send())).flat();
    if (undelivered.length > 0) {
      await store.ledger.recordUndelivered(undelivered);
      observer?.undelivered(undelivered.length);
      for (const entry of undelivered) {
        this.warn(
          `evalflow relay: event ${entry.seq} (${entry.event_type}) of run ${entry.run_id} in ` +
            `workspace ${workspaceId} was not delivered: ${entry.reason}; it is in the undelivered ledger`,
        );
      }
    }
    await store.saveCursor(workspaceId, this.cursor, last.seq);
    observer?.relayed(page.length, (page[0] as Envelope).ts);
  }

  /**
   * A page's events by destination, in seq order: each run's for its workflow with the plan in
   * force at each event, and the highest feedback seq for the mirror (it reads the log up to it).
   */
  private async sortOut(page: readonly Envelope[]) {
    const { store, workspaceId } = this.options;
    const runs = new Map<string, RunDelivery>();
    const threads = new Map<string, ThreadDelivery>();
    let mirrorSeq: number | null = null;
    for (const envelope of page) {
      const { event, seq } = envelope;
      const toRun = async (runId: string, threadId: string, runEvent: RunEvent) => {
        const workflowId = evaluateRunWorkflowId(store.id, workspaceId, runId);
        const delivery = runs.get(workflowId) ?? { workflowId, runId, threadId, items: [] };
        runs.set(workflowId, delivery);
        const { thread: _thread, ...plan } = await this.planAt(seq);
        delivery.items.push({ envelope, event: runEvent, plan });
      };
      // A thread's events go to its workflow only while some rule targets threads: an app that
      // judges no thread pays nothing for them.
      const toThread = async (threadId: string, threadEvent: ThreadEvent) => {
        await this.planAt(seq);
        if (!this.threadRules) return;
        const workflowId = evaluateThreadWorkflowId(store.id, workspaceId, threadId);
        const delivery = threads.get(workflowId) ?? { workflowId, threadId, events: [] };
        threads.set(workflowId, delivery);
        delivery.events.push(threadEvent);
      };
      const threadPlan = async () => (await this.planAt(seq)).thread;
      switch (event.type) {
        case 'thread_ended':
          await toThread(event.thread_id, { seq, type: 'ended' });
          break;
        case 'evaluation_rule_set':
        case 'evaluator_promoted': {
          this.tellRuleChange(envelope);
          for (const rule of rulesSetBy(event)) {
            this.workspaceRules?.set(rule.evaluator, {
              ...rule,
              set_by: '',
              set_at: envelope.ts,
              seq,
            });
          }
          this.plan = null;
          this.threadRules = null;
          break;
        }
        case 'run_started':
          await toRun(event.run_id, event.thread_id, {
            seq,
            type: event.resumed ? 'resumed' : 'started',
          });
          await toThread(event.thread_id, {
            seq,
            type: 'run_started',
            run_id: event.run_id,
            plan: await threadPlan(),
          });
          break;
        case 'run_paused':
          await toRun(event.run_id, event.thread_id, { seq, type: 'paused' });
          await toThread(event.thread_id, { seq, type: 'run_paused', run_id: event.run_id });
          break;
        case 'run_ended':
          await toRun(event.run_id, event.thread_id, { seq, type: 'ended', status: event.status });
          await toThread(event.thread_id, { seq, type: 'run_ended', run_id: event.run_id });
          break;
        case 'message_posted':
          await toThread(event.thread_id, { seq, type: 'message', plan: await threadPlan() });
          if (event.run_id === null) break;
          await toRun(event.run_id, event.thread_id, {
            seq,
            type: 'message',
            message_id: event.message_id,
            role: event.role,
          });
          break;
        case 'artifact_put':
          if (event.run_id === null || event.thread_id === null) break;
          await toRun(event.run_id, event.thread_id, {
            seq,
            type: 'artifact',
            artifact_id: event.artifact_id,
            version: event.version,
          });
          break;
        case 'feedback_given':
        case 'feedback_withdrawn':
        case 'rating_deleted':
        case 'score_recorded':
          mirrorSeq = seq;
          break;
        default:
          break;
      }
    }
    return { runs: [...runs.values()], threads: [...threads.values()], mirrorSeq };
  }

  /**
   * One line for a rule set or a version promoted, from whoever sent it (the API, the CLI, a
   * host): the relay is where every workspace's changes pass. A page relayed again after a crash
   * before its cursor moved tells them again.
   */
  private tellRuleChange({ event, seq, actor }: Envelope): void {
    const where = { workspace: this.options.workspaceId, seq, by: participantOf(actor) };
    if (event.type === 'evaluation_rule_set') {
      const state = event.enabled ? modeOf(event) : 'disabled';
      this.options.log?.info(
        { event: 'rule.set', ...where, evaluator: event.evaluator, state },
        'rule set',
      );
    } else if (event.type === 'evaluator_promoted') {
      this.options.log?.info(
        {
          event: 'evaluator.promoted',
          ...where,
          evaluator: event.evaluator,
          replacing: event.replacing,
          forced: event.forced,
        },
        'evaluator promoted',
      );
    }
  }

  /** The plan of the rules in force at `seq`. */
  private async planAt(seq: number): Promise<EvaluationPlan> {
    const { store, workspaceId, rules, evaluatorTaskQueues, evaluators } = this.options;
    if (this.workspaceRules === null) {
      const loaded = await store.rulesAt(workspaceId, seq);
      this.workspaceRules = new Map(loaded.map((rule) => [rule.evaluator, rule]));
    }
    if (this.plan === null || this.threadRules === null) {
      const inForce = rulesInForce(rules, this.workspaceRules.values());
      this.plan = planOf(inForce, workspaceId, evaluatorTaskQueues, evaluators);
      this.threadRules = inForce.some((rule) => rule.targets.includes('thread'));
    }
    return this.plan;
  }

  private async toMirror(seq: number): Promise<void> {
    const { client, store, taskQueue, workspaceId } = this.options;
    await client.workflow.signalWithStart('mirror', {
      workflowId: mirrorWorkflowId(store.id, workspaceId),
      taskQueue,
      args: [{ workspaceId }],
      signal: feedbackAppendedSignal,
      signalArgs: [{ seq }],
    });
  }

  /**
   * Signals a thread's events one after another. Activity with thread evaluators live starts its
   * workflow when none runs (the last one closed once it had judged all it was given); anything
   * else only reaches a running one, since with none running no generation waits for it.
   */
  private async toThread(thread: ThreadDelivery): Promise<void> {
    const { client, taskQueue, workspaceId, abandonAfterMs } = this.options;
    for (const event of thread.events) {
      const opens =
        (event.type === 'run_started' || event.type === 'message') && event.plan.length > 0;
      if (opens) {
        await client.workflow.signalWithStart<typeof evaluateThread, [ThreadEvent]>(
          'evaluateThread',
          {
            workflowId: thread.workflowId,
            taskQueue,
            args: [{ workspaceId, threadId: thread.threadId, abandonAfterMs }],
            signal: threadEventSignal,
            signalArgs: [event],
          },
        );
        continue;
      }
      try {
        await client.workflow.getHandle(thread.workflowId).signal(threadEventSignal, event);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    }
  }

  /**
   * Signals a run's events of the page as one signal (starting its workflow with the first);
   * returns those its closed workflow refused. The plan pinned is the one at the first event.
   */
  private async toRun(run: RunDelivery): Promise<Undelivered[]> {
    const { client, taskQueue, workspaceId, online, abandonAfterMs } = this.options;
    const [first, ...rest] = run.items;
    if (first === undefined) return [];
    try {
      await client.workflow.signalWithStart<typeof evaluateRun, RunEvents>('evaluateRun', {
        workflowId: run.workflowId,
        taskQueue,
        args: [
          {
            workspaceId,
            runId: run.runId,
            threadId: run.threadId,
            plan: first.plan,
            online,
            abandonAfterMs,
          },
        ],
        signal: runEventSignal,
        signalArgs: [first.event, ...rest.map(({ event }) => event)],
        // A run evaluated and closed is not started again by a late event.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      return this.refused(run, error);
    }
    return [];
  }

  /**
   * The events a run's closed workflow refused (a closed workflow stays closed, so the rest of
   * the page's are refused too), less those a completed one had applied: a relay that stopped
   * before saving its cursor sends those again, and they are repeats, not losses.
   */
  private async refused(
    run: RunDelivery,
    error: WorkflowExecutionAlreadyStartedError,
  ): Promise<Undelivered[]> {
    const handle = this.options.client.workflow.getHandle<typeof evaluateRun>(run.workflowId);
    const { status } = await handle.describe();
    // Started again since, by someone else: the page is relayed again from the cursor.
    if (status.name === 'RUNNING') throw error;
    const applied = status.name === 'COMPLETED' ? (await handle.result()).lastSeq : 0;
    const reason = `its workflow ${run.workflowId} is closed (${status.name.toLowerCase()})`;
    return run.items
      .filter(({ event }) => event.seq > applied)
      .map(({ envelope }) => ({
        workspace_id: envelope.workspace_id,
        seq: envelope.seq,
        event_type: envelope.event.type,
        run_id: run.runId,
        workflow_id: run.workflowId,
        reason,
      }));
  }
}
