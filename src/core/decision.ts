import type { Event } from './events.js';
import type { FeedbackTypeRegistry } from './feedback-types.js';
import type { StoredJudgeVersion } from './judge-versions.js';
import type { Rejection } from './rejections.js';
import type { EvaluatedKind } from './targets.js';

/** One rater's current rating, as a rated message lists it. */
export interface RatingEntry {
  rater: string;
  feedback_type: string;
  value: Record<string, unknown>;
}

export interface RatedMessage {
  message_id: string;
  thread_id: string;
  run_id: string | null;
  /** Every rater's current rating of the message, after this command. */
  feedback: RatingEntry[];
}

/**
 * Events to append, and for ratings and reviewers' feedback what the caller is told (over HTTP
 * isUpdate, ratedMessage, removed: docs/specification.md#message-ratings).
 */
export interface Recorded<E = Event> {
  type: 'recorded';
  events: E[];
  is_update?: boolean;
  rated_message?: RatedMessage;
  removed?: boolean;
}

export type Decision = Recorded | Rejection;

export interface ScoreConfigStatus {
  archived: boolean;
}

/** Where HUMAN feedback's score configs are looked up (the provider's config store). */
export interface ScoreConfigDirectory {
  statusOf(names: readonly string[]): Promise<ReadonlyMap<string, ScoreConfigStatus>>;
}

/** The evaluator versions an app deploys, by id (`name@version`), with the kinds each judges. */
export interface EvaluatorCatalog {
  targetsOf(id: string): readonly EvaluatedKind[] | undefined;
  /**
   * The feedback type its verdicts are of: routing rules name its fields, and a promotion
   * replaces a version of the same type.
   */
  feedbackTypeOf?(id: string): string | undefined;
}

/**
 * The deployed catalog with the workspace's recorded judge versions beside it (those the state
 * holds), so a rule or a promotion may name a version tuned as data like one declared in code.
 */
export const withRecordedVersions = (
  catalog: EvaluatorCatalog | undefined,
  recorded: ReadonlyMap<string, StoredJudgeVersion>,
): EvaluatorCatalog => ({
  targetsOf: (id) => catalog?.targetsOf(id) ?? recorded.get(id)?.targets,
  feedbackTypeOf: (id) => catalog?.feedbackTypeOf?.(id) ?? recorded.get(id)?.feedbackType,
});

/** What `decide` knows besides the workspace's entities. */
export interface DecideContext {
  feedbackTypes: FeedbackTypeRegistry;
  /** The deployed evaluator versions a rule may name; without it no rule can be set. */
  evaluators?: EvaluatorCatalog;
  /** The provider's score configs HUMAN feedback depends on; a name absent here is missing. */
  scoreConfigs?: ReadonlyMap<string, ScoreConfigStatus>;
  /**
   * The store's clock as it decides (ISO-8601), which reported times may not run ahead of
   * (docs/specification.md#reported-times). A store always gives it.
   */
  now?: string;
}

export const recorded = (
  events: Event[],
  extra: Omit<Recorded, 'type' | 'events'> = {},
): Recorded => ({
  type: 'recorded',
  events,
  ...extra,
});
