import type {
  Envelope,
  FeedbackGiven,
  FeedbackTypeRegistry,
  FeedbackWithdrawn,
  RatingDeleted,
  ScoreRecorded,
} from '../core/index.js';
import { participantOf } from '../core/index.js';
import { type Score, scoreConfigs, scoreId, scoreValidatedValues } from '../scores/index.js';
import type { EntityReads } from '../store/index.js';

// Feedback in the log → scores (docs/specification.md#feedback-as-scores). A score attaches to
// the trace its target belongs to, else to the thread as its session; with neither it is not
// produced.

export interface FeedbackScoreOptions {
  feedbackTypes: FeedbackTypeRegistry;
  store: EntityReads;
  tenantId: string;
  namespace?: string;
}

/** Feedback, given or withdrawn, as the log holds it. */
export type FeedbackEnvelope = Envelope<FeedbackGiven | RatingDeleted | FeedbackWithdrawn>;

/**
 * Feedback (given or withdrawn) whose type the app does not declare cannot become scores: the
 * score ledger records it as failed under this id and reason, null when the type is declared.
 * The id is UUIDv5 of the feedback's identity and its type name: a withdrawal lands on the entry
 * of what it withdraws, a replacement on the first one's, and no real score has it (those are
 * named `{type}.{field}`).
 */
export function undeclaredFeedback(
  envelope: FeedbackEnvelope,
  options: Pick<FeedbackScoreOptions, 'feedbackTypes' | 'namespace'>,
): { scoreId: string; reason: string } | null {
  const { event } = envelope;
  if (options.feedbackTypes.get(event.feedback_type) !== undefined) return null;
  const what = event.type === 'feedback_given' ? 'feedback' : `withdrawal (${event.type})`;
  return {
    scoreId: scoreId(identityOf(envelope).id, event.feedback_type, options.namespace),
    reason: `feedback type ${event.feedback_type} is not declared in the app; its ${what} was not mirrored`,
  };
}

/** The identity feedback's scores are recorded under, which replacements and withdrawals keep. */
function identityOf(envelope: FeedbackEnvelope): { id: string; ts: string } {
  const { event } = envelope;
  switch (event.type) {
    case 'feedback_given':
      return event.replaces ?? { id: envelope.id, ts: envelope.ts };
    case 'rating_deleted':
      return event.rating;
    case 'feedback_withdrawn':
      return event.identity;
  }
}

/** The scores one `feedback_given` produces; none for an undeclared type (`undeclaredFeedback`). */
export async function scoresOfFeedback(
  envelope: Envelope<FeedbackGiven>,
  options: FeedbackScoreOptions,
): Promise<Score[]> {
  const { event, actor } = envelope;
  const type = options.feedbackTypes.get(event.feedback_type);
  if (type === undefined) return [];
  // Replacing feedback (a rating, a reviewer's) keeps the first one's identity, so its scores
  // upsert in place.
  const identity = identityOf(envelope);
  const { traceId, spanId, sessionId } = await attachment(envelope, options.store);
  if (traceId === undefined && sessionId === undefined) return [];
  const source: Record<string, string> = {
    tenant_id: options.tenantId,
    workspace_id: envelope.workspace_id,
    feedback_type: event.feedback_type,
    target: event.target.kind,
    actor: participantOf(actor),
    actor_kind: actor.kind,
    seq: String(envelope.seq),
    score_source: event.source,
  };
  if (event.source_label !== undefined) source.source_label = event.source_label;
  // give_feedback stored the value as its type's schema parsed it: mapping it needs no re-parse.
  return scoreValidatedValues(type.schema, event.value, { typeName: type.name }).map(
    ({ config, value }) => ({
      id: scoreId(identity.id, config.name, options.namespace),
      name: config.name,
      value,
      dataType: config.dataType,
      ...(traceId !== undefined ? { traceId } : { sessionId }),
      ...(traceId !== undefined && spanId !== undefined ? { spanId } : {}),
      timestamp: identity.ts,
      ...(actor.kind === 'evaluator' ? { evaluator: actor.name, version: actor.version } : {}),
      source,
    }),
  );
}

/** The ids of the scores that withdrawn feedback (a deleted rating, a withdrawn review) had. */
export function scoreIdsOfWithdrawn(
  envelope: Envelope<RatingDeleted | FeedbackWithdrawn>,
  options: Pick<FeedbackScoreOptions, 'feedbackTypes' | 'namespace'>,
): string[] {
  const { event } = envelope;
  const type = options.feedbackTypes.get(event.feedback_type);
  if (type === undefined) return [];
  const identity = identityOf(envelope);
  return scoreConfigs(type.schema, { typeName: type.name }).map((config) =>
    scoreId(identity.id, config.name, options.namespace),
  );
}

async function attachment(
  envelope: Envelope<FeedbackGiven>,
  store: EntityReads,
): Promise<{ traceId?: string; spanId?: string; sessionId?: string }> {
  const { target, thread_id } = envelope.event;
  const ws = envelope.workspace_id;
  const session = thread_id ?? undefined;
  switch (target.kind) {
    case 'thread':
      return { sessionId: target.thread_id };
    case 'turn':
    case 'message': {
      const run = target.run_id ? await store.run(ws, target.run_id) : null;
      const traceId = traceOrNone(run?.trace_ids.at(-1));
      return { traceId, spanId: agentSpanOf(target.run_id, traceId), sessionId: session };
    }
    case 'artifact': {
      const version = await store.artifact(ws, target.artifact_id, target.version);
      return {
        traceId: traceOrNone(version?.trace_id),
        sessionId: version?.thread_id ?? undefined,
      };
    }
  }
}

// Langfuse and OpenTelemetry take W3C trace ids; a host's other ids fall back to the session.
const traceOrNone = (id: string | null | undefined) =>
  id && /^[0-9a-f]{32}$/.test(id) ? id : undefined;

/**
 * The score a direct write records: on its trace, named as written, its id derived from the
 * trace, the rater and the name (docs/specification.md#score-ids), so writing it again reuses it;
 * the mirror carries the first write's timestamp on (`keepFirstTimestamps`), so it replaces it.
 */
export function scoreOfRecorded(
  envelope: Envelope<ScoreRecorded>,
  options: Pick<FeedbackScoreOptions, 'tenantId' | 'namespace'>,
): Score {
  const { event, actor } = envelope;
  const rater = participantOf(actor);
  const source: Record<string, string> = {
    tenant_id: options.tenantId,
    workspace_id: envelope.workspace_id,
    actor: rater,
    actor_kind: actor.kind,
    seq: String(envelope.seq),
    score_source: event.source,
  };
  if (event.source_label !== null) source.source_label = event.source_label;
  if (event.comment !== null) source.comment = event.comment;
  return {
    id: scoreId(`${event.trace_id}|${rater}`, event.name, options.namespace),
    name: event.name,
    value: event.value,
    dataType: typeof event.value === 'boolean' ? 'BOOLEAN' : 'NUMERIC',
    traceId: event.trace_id,
    timestamp: envelope.ts,
    source,
  };
}

/**
 * The agent span a run came from, for a run the OTLP receiver recorded (its id is
 * `{traceId}-{spanId}`, docs/traces.md): its scores then land on that span (Langfuse's
 * observation), not only on the trace.
 */
function agentSpanOf(runId: string | null | undefined, traceId: string | undefined) {
  if (!runId || traceId === undefined) return undefined;
  const match = /^([0-9a-f]{32})-([0-9a-f]{16})$/.exec(runId);
  return match?.[1] === traceId ? match[2] : undefined;
}
