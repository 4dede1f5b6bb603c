import { z } from 'zod';
import type { AppDefinition } from '../config/index.js';
import {
  evaluatorId,
  type FeedbackRecord,
  type ReviewQueue,
  type ScoreConfigStatus,
  type Target,
  targetKey,
} from '../core/index.js';
import type { ScoreConfigStore } from '../scores/index.js';
import type { EntityReads, EventLog, ReviewItemWithSlots, TraceInbox } from '../store/index.js';
import { stepsOfRun } from '../traces/index.js';
import {
  RoleName,
  roleName,
  WireFeedback,
  WireRun,
  WireSteps,
  WireTarget,
  wireFeedback,
  wireSteps,
  wireTarget,
} from '../wire/entities.js';
import { WireConfig, wireConfig } from '../wire/score-configs.js';

// What a reviewer's page shows of an item (docs/api.md#the-item-view): the queue's instructions
// and form (the HUMAN type's score configs), the target's conversation, run timeline or artifact
// version with the one before, users' ratings, evaluators' verdicts when the queue shows them,
// and other reviewers' verdicts unless the queue is blind and the caller has not given theirs.
// Everything in it was written by agents and people: the page renders it as text.

const TimelineEntry = z.object({
  event: z.enum(['started', 'paused', 'resumed', 'ended']),
  at: z.string(),
  /** Why the run paused. */
  reason: z.string().nullable().optional(),
  /** How the run ended. */
  status: WireRun.shape.status.optional(),
});

export const ItemView = z.object({
  queue: z.object({
    queueId: z.string(),
    feedbackType: z.string(),
    /** The score config a verdict names (`configId` of a submit): the HUMAN type's config. */
    configId: z.string(),
    instructions: z.string(),
    blind: z.boolean(),
    showAutomatedVerdicts: z.boolean(),
    leaseSeconds: z.int(),
    reviewersPerItem: z.int(),
  }),
  item: z.object({
    itemId: z.string(),
    target: WireTarget,
    /** The caller's live lease on it, else null. */
    leaseExpiresAt: z.string().nullable(),
    slots: z.int(),
    slotsDone: z.int(),
  }),
  scoreConfigs: z.array(WireConfig),
  thread: z
    .object({
      threadId: z.string(),
      title: z.string().nullable(),
      messages: z.array(
        z.object({
          messageId: z.string(),
          role: RoleName,
          content: z.string(),
          runId: z.string().nullable(),
          postedAt: z.string(),
          /** The message under review, or one of the run under review. */
          isTarget: z.boolean(),
        }),
      ),
    })
    .nullable(),
  run: z
    .object({
      runId: z.string(),
      status: WireRun.shape.status,
      timeline: z.array(TimelineEntry),
      /** Its model and tool calls, for a run read from an agent's spans. */
      ...WireSteps,
    })
    .nullable(),
  artifact: z
    .object({
      artifactId: z.string(),
      kind: z.string(),
      version: z.int(),
      data: z.unknown(),
      previous: z.object({ version: z.int(), data: z.unknown() }).nullable(),
    })
    .nullable(),
  ratings: z.array(WireFeedback),
  automatedVerdicts: z.array(
    z.object({
      evaluator: z.string(),
      feedbackType: z.string(),
      value: z.record(z.string(), z.unknown()),
      confidence: z.number().optional(),
    }),
  ),
  otherReviews: z.array(WireFeedback),
  myReview: WireFeedback.nullable(),
});
export type ItemView = z.output<typeof ItemView>;

export interface ItemViewDeps {
  store: EntityReads & Pick<EventLog, 'events'> & Pick<TraceInbox, 'traceSpans'>;
  app: AppDefinition;
  /** The sink's config statuses, read at most every few seconds (see `configStatuses`). */
  statuses: () => Promise<ReadonlyMap<string, ScoreConfigStatus>>;
}

/** The sink's config statuses, read again at most every `everyMs`: every item view shows them. */
export function configStatuses(configs: ScoreConfigStore, everyMs = 5000) {
  let kept: { at: number; statuses: Promise<ReadonlyMap<string, ScoreConfigStatus>> } | null = null;
  return {
    read() {
      if (kept === null || Date.now() - kept.at > everyMs) {
        const statuses = configs.statuses();
        kept = { at: Date.now(), statuses };
        statuses.catch(() => {
          kept = null;
        });
      }
      return kept.statuses;
    },
    forget() {
      kept = null;
    },
  };
}

const runOfTarget = (target: Target): string | null =>
  target.kind === 'turn' ? target.run_id : target.kind === 'message' ? target.run_id : null;

export async function itemView(
  deps: ItemViewDeps,
  input: {
    workspaceId: string;
    queue: ReviewQueue;
    item: ReviewItemWithSlots;
    /** The caller's participant id. */
    caller: string;
    /** Whether the caller is a reviewer, to whom a blind queue hides others' verdicts. */
    reviewer: boolean;
    now: Date;
  },
): Promise<ItemView> {
  const { store, app } = deps;
  const { workspaceId: ws, queue, item, caller } = input;
  const target = item.target;
  const key = targetKey(target);

  const artifact =
    target.kind === 'artifact'
      ? await store.artifact(ws, target.artifact_id, target.version)
      : null;
  const runId = runOfTarget(target) ?? artifact?.run_id ?? null;
  const run = runId === null ? null : await store.run(ws, runId);
  const threadId =
    target.kind === 'thread' || target.kind === 'message'
      ? target.thread_id
      : (run?.thread_id ?? artifact?.thread_id ?? null);

  const onTarget = await store.feedback(ws, { target });
  const mine = onTarget.find(
    (record) => record.participant === caller && record.feedback_type === queue.feedback_type,
  );
  const reviews = othersVerdicts(onTarget, queue.feedback_type, caller);
  const hidden = input.reviewer && queue.blind && mine === undefined;

  const lease = item.slot_states.find(
    (slot) =>
      slot.holder === caller &&
      slot.state === 'leased' &&
      slot.at !== null &&
      Date.parse(slot.at) > input.now.getTime(),
  );
  const type = app.feedbackTypes.get(queue.feedback_type);
  const statuses = await deps.statuses();
  const known = new Map(app.scoreConfigSync.configs.map((config) => [config.name, config]));
  const configNames = type?.configName ? app.scoreConfigFields(type.configName) : [];

  return {
    queue: {
      queueId: queue.queue_id,
      feedbackType: queue.feedback_type,
      configId: app.feedbackTypes.get(queue.feedback_type)?.configName ?? queue.feedback_type,
      instructions: queue.instructions,
      blind: queue.blind,
      showAutomatedVerdicts: queue.show_automated_verdicts,
      leaseSeconds: queue.lease_seconds,
      reviewersPerItem: queue.reviewers_per_item,
    },
    item: {
      itemId: item.item_id,
      target: wireTarget(target),
      leaseExpiresAt: lease?.at ?? null,
      slots: item.slots,
      slotsDone: item.slots_done,
    },
    scoreConfigs: configNames
      .filter((name) => statuses.has(name))
      .map((name) => wireConfig(name, statuses.get(name)?.archived ?? false, known.get(name))),
    thread: threadId === null ? null : await threadOf(store, ws, threadId, target),
    run:
      run === null
        ? null
        : {
            runId: run.run_id,
            status: run.status,
            timeline: await timelineOf(store, ws, run.thread_id, run.run_id),
            ...wireSteps(await stepsOfRun(store.traceSpans, ws, run)),
          },
    artifact:
      artifact === null || target.kind !== 'artifact'
        ? null
        : {
            artifactId: artifact.artifact_id,
            kind: artifact.kind,
            version: artifact.version,
            data: artifact.data,
            previous: await previousOf(store, ws, artifact.artifact_id, artifact.version),
          },
    ratings: (await ratingsOf(store, ws, target, key)).map(wireFeedback),
    automatedVerdicts: queue.show_automated_verdicts
      ? onTarget.filter((record) => record.actor.kind === 'evaluator').map(verdictOf)
      : [],
    otherReviews: hidden ? [] : reviews.map(wireFeedback),
    myReview: mine === undefined ? null : wireFeedback(mine),
  };
}

/** Other reviewers' verdicts of a queue's type among a target's feedback: not the caller's. */
export const othersVerdicts = (
  onTarget: readonly FeedbackRecord[],
  feedbackType: string,
  caller: string,
) =>
  onTarget.filter(
    (record) =>
      record.source === 'HUMAN' &&
      record.feedback_type === feedbackType &&
      record.participant !== caller,
  );

function verdictOf(record: FeedbackRecord) {
  const actor = record.actor as Extract<FeedbackRecord['actor'], { kind: 'evaluator' }>;
  const confidence = record.value.confidence;
  return {
    evaluator: evaluatorId(actor),
    feedbackType: record.feedback_type,
    value: record.value,
    ...(typeof confidence === 'number' ? { confidence } : {}),
  };
}

async function threadOf(store: EntityReads, ws: string, threadId: string, target: Target) {
  const thread = await store.thread(ws, threadId);
  const messages = (await store.conversation(ws, threadId)) ?? [];
  const isTarget = (message: { message_id: string; run_id: string | null }) =>
    target.kind === 'thread' ||
    (target.kind === 'message' && message.message_id === target.message_id) ||
    (target.kind === 'turn' && message.run_id === target.run_id);
  return {
    threadId,
    title: thread?.title ?? null,
    messages: messages.map((message) => ({
      messageId: message.message_id,
      role: roleName(message.role),
      content: message.content,
      runId: message.run_id,
      postedAt: message.posted_at,
      isTarget: isTarget(message),
    })),
  };
}

/** A run's starts, pauses (with reasons), resumes and end, from the thread's log. */
async function timelineOf(
  store: Pick<EventLog, 'events'>,
  ws: string,
  threadId: string,
  runId: string,
) {
  const timeline: z.output<typeof TimelineEntry>[] = [];
  let after = 0;
  for (;;) {
    const page = await store.events({ workspace_id: ws, thread_id: threadId, after, limit: 1000 });
    for (const { event, ts } of page) {
      if (!('run_id' in event) || event.run_id !== runId) continue;
      if (event.type === 'run_started') {
        timeline.push({ event: event.resumed ? 'resumed' : 'started', at: ts });
      } else if (event.type === 'run_paused') {
        timeline.push({ event: 'paused', at: ts, reason: event.reason });
      } else if (event.type === 'run_ended') {
        timeline.push({ event: 'ended', at: ts, status: event.status });
      }
    }
    if (page.length < 1000) return timeline;
    after = page.at(-1)?.seq ?? after;
  }
}

async function previousOf(store: EntityReads, ws: string, artifactId: string, version: number) {
  if (version <= 1) return null;
  const previous = await store.artifact(ws, artifactId, version - 1);
  return previous === null ? null : { version: previous.version, data: previous.data };
}

/** End users' ratings of the target: of a message; of a turn's or a thread's messages too. */
async function ratingsOf(store: EntityReads, ws: string, target: Target, key: string) {
  if (target.kind === 'turn') {
    const run = await store.run(ws, target.run_id);
    if (run === null) return [];
    return (await store.feedback(ws, { thread_id: run.thread_id, source: 'USER' })).filter(
      (record) => record.run_id === target.run_id,
    );
  }
  if (target.kind === 'thread') {
    return store.feedback(ws, { thread_id: target.thread_id, source: 'USER' });
  }
  return (await store.feedback(ws, { source: 'USER', target })).filter(
    (record) => record.target_key === key,
  );
}
