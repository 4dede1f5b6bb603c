import { z } from 'zod';
import {
  Budget,
  createFeedbackTypeRegistry,
  type EvaluatedKind,
  type EvaluationRule,
  EvaluatorId,
  type FeedbackType,
  type FeedbackTypeRegistry,
  Id,
  idleForProblem,
  type ModelPrice,
  Pricing,
  type ReviewQueue,
  type RuleMode,
  reviewQueueProblem,
  type ScoreConfigDirectory,
  type ScoreConfigStatus,
  specificIssue,
  summaryOf,
} from '../core/index.js';
import {
  createEvaluatorRegistry,
  type Evaluator,
  type EvaluatorLimit,
  type EvaluatorRegistry,
  everyTargetRules,
} from '../evaluators/index.js';
import { type ScoreConfig, scoreConfigs } from '../scores/index.js';
import { InvalidConfigError } from './errors.js';
import {
  type ReviewQueueSettingsInput,
  ReviewQueueSettingsInput as ReviewQueueSettingsSchema,
  type RoutingRuleInput,
  reviewQueueOf,
} from './review-queue-settings.js';
import { RuleSettingsInput, ruleSettingsOf } from './rule-settings.js';

// The app definition: the one object the host's store, the worker, the API and the CLI share, so a
// type the host can record is a type the engine can judge and mirror.

/** A rule as the config file writes it; the workspace's rule commands use the same settings. */
export interface RuleInput {
  /** `name@version` of a declared evaluator. */
  evaluator: string;
  /** The kinds it judges under this rule (default: every kind the evaluator judges). */
  targets?: readonly EvaluatedKind[];
  /** The share of targets judged, from 0 to 1 (default 1). */
  sampleRate?: number;
  /** Where the rule applies: these workspaces only; artifact versions of these kinds only. */
  filter?: { workspaces?: readonly string[]; artifactKinds?: readonly string[] };
  /** A disabled rule judges nothing (default true). */
  enabled?: boolean;
  /**
   * `shadow`: judge what the live versions of the feedback type judge, recorded apart and never
   * the current verdict, until promoted (default `live`).
   */
  mode?: RuleMode;
  /**
   * For a rule that targets threads: how long a thread is quiet (no run open, no message posted)
   * before it is judged, such as `'30m'` or `'1h30m'` (default `'30m'`).
   */
  idleFor?: string;
}

/** A review queue as the config file writes it; a workspace's queue of the same id overrides it. */
export interface ReviewQueueInput {
  /** The queue's id, as the API and the CLI name it. */
  queueId: string;
  /** The HUMAN feedback type its reviewers give (a name, or the type itself). */
  feedbackType: string | FeedbackType;
  /** What reviewers read first, in Markdown. */
  instructions?: string;
  /** The target kinds it takes (default: every kind the feedback type is given on). */
  targetKinds?: ReviewQueueSettingsInput['targetKinds'];
  /** Verdicts each item needs, from different reviewers (default 1). */
  reviewersPerItem?: number;
  /** Reviewers see no other reviewer's verdict on an item before their own (default true). */
  blind?: boolean;
  /** The item view shows evaluators' verdicts on the target (default false). */
  showAutomatedVerdicts?: boolean;
  /** How long a claim holds an item without a heartbeat, in seconds (default 900). */
  leaseSeconds?: number;
  /** Rules that put targets into the queue as they happen. */
  routing?: readonly RoutingRuleInput[];
}

/** A score config HUMAN feedback is validated against; `archived` retires it. */
export interface ScoreConfigDeclaration {
  source: 'HUMAN';
  archived?: boolean;
}

export interface AppConfigInput {
  /** Every feedback type the app records: ratings, reviews; evaluators' types join on their own. */
  feedbackTypes?: readonly FeedbackType[];
  /** Every evaluator version still needed: live ones, and those pinned runs or backfills name. */
  evaluators?: readonly Evaluator[];
  /** The score configs HUMAN feedback types name (`configName`), by name. */
  scoreConfigs?: Readonly<Record<string, ScoreConfigDeclaration>>;
  /**
   * Which evaluator versions judge new runs. Omitted: every evaluator judges everything it can
   * (only when no evaluator has two versions). Given: only the versions named here judge.
   */
  rules?: readonly RuleInput[];
  /**
   * Limits of evaluators that call a rate-limited endpoint, by evaluator name (every version
   * shares them). Each limited evaluator judges on a task queue of its own, served by its own
   * worker: `maxConcurrent` caps the evaluations in flight on each worker process, `perSecond`
   * caps their starts across all workers (Temporal's task-queue rate limit).
   */
  evaluatorLimits?: Readonly<Record<string, EvaluatorLimit>>;
  /**
   * The review queues every workspace starts with; a workspace's own queues (set through the
   * API) override them by id.
   */
  reviewQueues?: readonly ReviewQueueInput[];
  /**
   * Prices by model name, in USD per million input and output tokens: what turns an evaluator's
   * reported tokens into money where it reports no cost of its own.
   */
  pricing?: Readonly<Record<string, ModelPrice>>;
  /**
   * Limits in USD per evaluator (by name, or one version `name@version`) and UTC period (a week
   * starts on Monday), in one workspace or over all of them, and what an evaluation does once the
   * period's limit is spent: `skip` (settled as skipped, `budget_exhausted`) or `defer` (it waits
   * durably for the next period). A budget stored through the API overrides one of the same id.
   */
  budgets?: readonly Budget[];
}

const APP = Symbol.for('evalflow.app');

export interface AppDefinition {
  readonly [APP]: true;
  readonly feedbackTypes: FeedbackTypeRegistry;
  readonly evaluators: EvaluatorRegistry;
  /** The declared HUMAN configs' status, where the store checks reviewers' feedback. */
  readonly scoreConfigs: ScoreConfigDirectory;
  /** The default rules; a workspace's own rules override them per evaluator version. */
  readonly rules: readonly EvaluationRule[];
  /** The limited evaluators' limits, by evaluator name (see `AppConfigInput.evaluatorLimits`). */
  readonly evaluatorLimits: Readonly<Record<string, Readonly<EvaluatorLimit>>>;
  /** The default review queues; a workspace's own queues override them by id. */
  readonly reviewQueues: readonly ReviewQueue[];
  /** Prices by model name (see `AppConfigInput.pricing`). */
  readonly pricing: Readonly<Pricing>;
  /** The config's budgets (see `AppConfigInput.budgets`). */
  readonly budgets: readonly Budget[];
  /** The sink's score configs: one per scorable field of every type; retired types' archived. */
  readonly scoreConfigSync: { configs: readonly ScoreConfig[]; retired: readonly string[] };
  /** The field configs a HUMAN config name stands for (its type's); empty for an unknown name. */
  scoreConfigFields(configName: string): readonly string[];
}

export const isAppDefinition = (value: unknown): value is AppDefinition =>
  typeof value === 'object' && value !== null && (value as { [APP]?: unknown })[APP] === true;

// By shape, not by class: a config file loaded on its own may hold another copy of zod.
const isFeedbackType = (value: unknown): value is FeedbackType =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FeedbackType).name === 'string' &&
  (value as FeedbackType).schema?._zod?.def?.type === 'object';
const isEvaluator = (value: unknown): value is Evaluator =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Evaluator).participant === 'string' &&
  typeof (value as Evaluator).evaluate === 'function';

const Input = z.strictObject({
  feedbackTypes: z
    .array(z.custom<FeedbackType>(isFeedbackType, 'not a feedback type from defineFeedbackType'))
    .default([]),
  evaluators: z
    .array(z.custom<Evaluator>(isEvaluator, 'not an evaluator from defineEvaluator'))
    .default([]),
  scoreConfigs: z
    .record(
      z.string().min(1),
      z.strictObject({ source: z.literal('HUMAN'), archived: z.boolean().default(false) }),
    )
    .default({}),
  rules: z
    .array(
      RuleSettingsInput.extend({
        evaluator: EvaluatorId,
        // Absent: every kind the evaluator judges.
        targets: RuleSettingsInput.shape.targets.optional(),
      }),
    )
    .optional(),
  evaluatorLimits: z
    .record(
      z.string().min(1),
      z
        .strictObject({
          maxConcurrent: z.int().min(1).optional(),
          perSecond: z.number().positive().finite().optional(),
        })
        .refine(
          (limit) => limit.maxConcurrent !== undefined || limit.perSecond !== undefined,
          'set maxConcurrent, perSecond or both',
        ),
    )
    .default({}),
  reviewQueues: z
    .array(
      ReviewQueueSettingsSchema.extend({
        queueId: Id,
        feedbackType: z.union([
          ReviewQueueSettingsSchema.shape.feedbackType,
          z
            .custom<FeedbackType>(isFeedbackType, 'not a feedback type from defineFeedbackType')
            .transform((type) => type.name),
        ]),
      }),
    )
    .default([]),
  pricing: Pricing.default({}),
  budgets: z.array(Budget).default([]),
});

/** How many of a definition's issues its error lists, each with its path, before "and N more". */
export const CONFIG_ISSUES_SHOWN = 20;

/**
 * Checks an app's definition whole; a mistake throws `InvalidConfigError` naming it, and every
 * issue the schema finds (up to `CONFIG_ISSUES_SHOWN`) with its path and what it expected.
 */
export function defineConfig(input: AppConfigInput = {}): AppDefinition {
  const parsed = Input.safeParse(input);
  if (!parsed.success) {
    const specific = new z.ZodError(parsed.error.issues.map(specificIssue));
    throw new InvalidConfigError(summaryOf(specific, CONFIG_ISSUES_SHOWN, 'the definition'));
  }
  const { feedbackTypes: declared, evaluators: list, scoreConfigs: human } = parsed.data;

  const feedbackTypes = guarded(() =>
    createFeedbackTypeRegistry([...new Set([...declared, ...list.map((e) => e.feedbackType)])]),
  );
  const evaluators = guarded(() => createEvaluatorRegistry(list));
  checkHumanConfigs(feedbackTypes, human);
  const evaluatorLimits = checkedLimits(evaluators, parsed.data.evaluatorLimits);
  const rules = parsed.data.rules
    ? parsed.data.rules.map((rule, index) => checkedRule(evaluators, rule, index))
    : rulesForAll(evaluators);

  const reviewQueues = checkedQueues(feedbackTypes, evaluators, parsed.data.reviewQueues);
  const budgets = checkedBudgets(evaluators, parsed.data.budgets);

  const statuses = new Map<string, ScoreConfigStatus>(
    Object.entries(human).map(([name, { archived }]) => [name, { archived }]),
  );
  const configs = feedbackTypes
    .list()
    .flatMap((type) => [
      ...scoreConfigs(type.schema, { typeName: type.name }).map((config) => ({ type, config })),
    ]);
  checkDistinctConfigNames(configs);
  const retired = (type: FeedbackType) =>
    type.configName !== null && statuses.get(type.configName)?.archived === true;
  return Object.freeze({
    [APP]: true as const,
    feedbackTypes,
    evaluators,
    scoreConfigs: {
      async statusOf(names: readonly string[]) {
        return new Map(
          names.flatMap((name) =>
            statuses.has(name) ? [[name, statuses.get(name) as ScoreConfigStatus]] : [],
          ),
        );
      },
    },
    rules: Object.freeze(rules),
    evaluatorLimits,
    reviewQueues: Object.freeze(reviewQueues),
    pricing: Object.freeze(parsed.data.pricing),
    budgets: Object.freeze(budgets),
    scoreConfigFields: (configName: string) =>
      configs.filter(({ type }) => type.configName === configName).map(({ config }) => config.name),
    scoreConfigSync: Object.freeze({
      configs: configs.filter(({ type }) => !retired(type)).map(({ config }) => config),
      retired: configs.filter(({ type }) => retired(type)).map(({ config }) => config.name),
    }),
  });
}

/** Each budget id once, each naming an evaluator (or version) the app declares. */
function checkedBudgets(evaluators: EvaluatorRegistry, budgets: readonly Budget[]): Budget[] {
  const seen = new Set<string>();
  return budgets.map((budget, index) => {
    if (seen.has(budget.budgetId)) {
      throw new InvalidConfigError(
        `budgets[${index}]: budget ${budget.budgetId} is declared twice`,
      );
    }
    seen.add(budget.budgetId);
    const named = evaluators
      .list()
      .some((e) => e.name === budget.evaluator || e.id === budget.evaluator);
    if (!named) {
      throw new InvalidConfigError(
        `budgets[${index}].evaluator: ${budget.evaluator} is no evaluator (or version) of the app`,
      );
    }
    return Object.freeze({ ...budget });
  });
}

/**
 * No two feedback types make a score config of the same name: `a.b` with field `c` and `a` with
 * field `b.c` would both name `a.b.c`, and their scores would meet under one config in Langfuse.
 */
function checkDistinctConfigNames(
  configs: readonly { type: FeedbackType; config: { name: string } }[],
) {
  const owner = new Map<string, string>();
  for (const { type, config } of configs) {
    const first = owner.get(config.name);
    if (first !== undefined && first !== type.name) {
      throw new InvalidConfigError(
        `feedback types ${first} and ${type.name} both make the score config ${config.name}; rename a type or a field`,
      );
    }
    owner.set(config.name, type.name);
  }
}

/** Every HUMAN type's config is declared, and every declared config is some HUMAN type's. */
function checkHumanConfigs(
  feedbackTypes: FeedbackTypeRegistry,
  human: Record<string, ScoreConfigDeclaration>,
) {
  const named = new Set<string>();
  for (const type of feedbackTypes.list()) {
    if (type.configName === null) continue;
    named.add(type.configName);
    if (!(type.configName in human)) {
      throw new InvalidConfigError(
        `feedback type ${type.name} names score config ${type.configName}: declare it in ` +
          `scoreConfigs: { ${type.configName}: { source: 'HUMAN' } }`,
      );
    }
  }
  for (const name of Object.keys(human)) {
    if (!named.has(name)) {
      throw new InvalidConfigError(
        `scoreConfigs.${name} is named by no feedback type's configName`,
      );
    }
  }
}

type ParsedQueue = z.output<typeof Input>['reviewQueues'][number];

/** Each queue checked by the core's rule for queues; ids once each. */
function checkedQueues(
  feedbackTypes: FeedbackTypeRegistry,
  evaluators: EvaluatorRegistry,
  queues: readonly ParsedQueue[],
): ReviewQueue[] {
  const seen = new Set<string>();
  return queues.map(({ queueId, ...settings }, index) => {
    if (seen.has(queueId)) {
      throw new InvalidConfigError(`reviewQueues[${index}]: queue ${queueId} is declared twice`);
    }
    seen.add(queueId);
    const queue = reviewQueueOf(queueId, settings, feedbackTypes);
    const problem = reviewQueueProblem(queue, { feedbackTypes, evaluators });
    if (problem !== null) {
      throw new InvalidConfigError(`reviewQueues[${index}] (${queueId}): ${problem.message}`);
    }
    return Object.freeze(queue);
  });
}

/** Every limit names a declared evaluator; unset limits are left out. */
function checkedLimits(
  evaluators: EvaluatorRegistry,
  limits: Record<string, EvaluatorLimit>,
): Readonly<Record<string, Readonly<EvaluatorLimit>>> {
  const names = new Set(evaluators.list().map((e) => e.name));
  for (const name of Object.keys(limits)) {
    if (!names.has(name)) {
      throw new InvalidConfigError(
        `evaluatorLimits.${name} names no declared evaluator (${[...names].join(', ') || 'none declared'})`,
      );
    }
  }
  return Object.freeze(
    Object.fromEntries(
      Object.entries(limits).map(([name, { maxConcurrent, perSecond }]) => [
        name,
        Object.freeze({
          ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
          ...(perSecond !== undefined ? { perSecond } : {}),
        }),
      ]),
    ),
  );
}

type ParsedRule = NonNullable<z.output<typeof Input>['rules']>[number];

function checkedRule(
  evaluators: EvaluatorRegistry,
  rule: ParsedRule,
  index: number,
): EvaluationRule {
  const judges = evaluators.targetsOf(rule.evaluator);
  if (judges === undefined) {
    const known = evaluators.list().map((e) => e.id);
    throw new InvalidConfigError(
      `rules[${index}] names ${rule.evaluator}, which is not among the evaluators ` +
        `(${known.join(', ') || 'none declared'})`,
    );
  }
  const targets = rule.targets ?? [...judges];
  const unjudged = targets.filter((kind) => !judges.includes(kind));
  if (unjudged.length > 0) {
    throw new InvalidConfigError(
      `rules[${index}]: ${rule.evaluator} judges ${judges.join(', ')}, not ${unjudged.join(', ')}`,
    );
  }
  const settings = ruleSettingsOf({ ...rule, targets });
  const idleFor = idleForProblem(settings);
  if (idleFor !== null) throw new InvalidConfigError(`rules[${index}]: ${idleFor}`);
  return { evaluator: rule.evaluator, ...settings };
}

/** Without rules every evaluator is live, which only makes sense with one version of each. */
function rulesForAll(evaluators: EvaluatorRegistry): EvaluationRule[] {
  const versions = new Map<string, string[]>();
  for (const { name, version } of evaluators.list()) {
    versions.set(name, [...(versions.get(name) ?? []), version]);
  }
  for (const [name, of] of versions) {
    if (of.length > 1) {
      throw new InvalidConfigError(
        `evaluator ${name} has versions ${of.join(' and ')}: say which judges new runs with ` +
          `rules: [{ evaluator: '${name}@${of.at(-1)}' }]`,
      );
    }
  }
  return everyTargetRules(evaluators.list());
}

function guarded<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new InvalidConfigError((error as Error).message, { cause: error });
  }
}
