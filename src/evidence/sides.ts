import {
  EVALUATOR_ID_PART,
  evaluatorParticipant,
  type FeedbackType,
  type FeedbackTypeRegistry,
  parseEvaluatorId,
  type ScoreSource,
} from '../core/index.js';
import type { EvaluatorRegistry } from '../evaluators/index.js';
import { isComparable, type ScoreConfig, scoreConfigs } from '../scores/index.js';
import type { FeedbackFilter } from '../store/index.js';
import { invalidQuery, missing } from './errors.js';

// A side of a comparison, as people write it and as the store reads it. Four populations:
//
//   politeness@2:polite                 an evaluator version's field (its latest generation)
//   reviewers[:review_verdict.verdict]  every reviewer's (several on a target: their majority)
//   reviewer:grace[:type.field]         one reviewer's
//   users[:helpfulness.helpful]         end users' ratings (several on a target: their majority)
//
// A field left out is the evaluator's only comparable field, or for a population the other
// side's type and field. A population's field is named by its score config name, `type.field`.

/** Where a side's verdicts come from. */
export type Population = 'evaluator' | 'reviewers' | 'users';

/** What the app knows that resolves a side: its feedback types and deployed evaluators. */
export interface AgreementApp {
  readonly feedbackTypes: FeedbackTypeRegistry;
  readonly evaluators: EvaluatorRegistry;
}

/**
 * The judge versions recorded as data in the workspace a side may name, by id (`judge@version`),
 * with the feedback type each answers with: read from the store, they stand beside those deployed.
 */
export type RecordedJudgeTypes = ReadonlyMap<string, { readonly feedbackType: string }>;

/** A side as written, before its field is settled. */
interface ParsedSide {
  readonly population: Population;
  /** The evaluator version's participant, one reviewer's, or null for a whole population. */
  readonly participant: string | null;
  /** The evaluator version's id, for an evaluator side. */
  readonly evaluator: string | null;
  /** The field as written: a bare field for an evaluator, `type.field` otherwise; null: left out. */
  readonly field: string | null;
}

/** A side ready to read: its population, who, and which field of which type. */
export interface ResolvedSide {
  /** The side in its full written form: `politeness@2:polite`, `reviewers:politeness.polite`. */
  readonly text: string;
  readonly population: Population;
  readonly participant: string | null;
  readonly type: FeedbackType;
  readonly config: ScoreConfig;
  /** The store's filter of its verdicts: one indexed read. */
  readonly filter: FeedbackFilter;
  /** Several raters may judge one target (a population), so a target's verdict is theirs together. */
  readonly several: boolean;
}

const EVALUATOR_SIDE = new RegExp(
  `^(${EVALUATOR_ID_PART.source.slice(1, -1)}@${EVALUATOR_ID_PART.source.slice(1, -1)})(?::(.+))?$`,
);

/** Every comparable field config of every registered type, by its name (`type.field`). */
function fieldsByName(app: AgreementApp): Map<string, { type: FeedbackType; config: ScoreConfig }> {
  const byName = new Map<string, { type: FeedbackType; config: ScoreConfig }>();
  for (const type of app.feedbackTypes.list()) {
    for (const config of scoreConfigs(type.schema, { typeName: type.name })) {
      if (isComparable(config.dataType)) byName.set(config.name, { type, config });
    }
  }
  return byName;
}

function parseSide(text: string, isFieldName: (name: string) => boolean): ParsedSide {
  const evaluator = EVALUATOR_SIDE.exec(text);
  if (evaluator !== null) {
    const id = evaluator[1] as string;
    return {
      population: 'evaluator',
      participant: evaluatorParticipant(parseEvaluatorId(id)),
      evaluator: id,
      field: evaluator[2] ?? null,
    };
  }
  const [head, ...rest] = text.split(':');
  const tail = rest.length === 0 ? null : rest.join(':');
  if (head === 'reviewers' || head === 'users') {
    return {
      population: head,
      participant: null,
      evaluator: null,
      field: tail === '' ? null : tail,
    };
  }
  if (head === 'reviewer' && tail !== null && tail !== '') {
    // The reviewer's id runs to the end, unless what follows its last ':' names a field.
    const at = tail.lastIndexOf(':');
    const named = at > 0 && isFieldName(tail.slice(at + 1));
    return {
      population: 'reviewers',
      participant: `reviewer:${named ? tail.slice(0, at) : tail}`,
      evaluator: null,
      field: named ? tail.slice(at + 1) : null,
    };
  }
  throw invalidQuery(
    `a side is name@version[:field], reviewers[:type.field], reviewer:ID[:type.field] or users[:type.field], not ${JSON.stringify(text)}`,
  );
}

const SOURCES: Record<Exclude<Population, 'evaluator'>, ScoreSource> = {
  reviewers: 'HUMAN',
  users: 'USER',
};

/**
 * Both sides, resolved against the app: each field settled (a population's left out takes the
 * other side's), the evaluators deployed, the fields comparable and of one kind.
 *
 * @throws AgreementQueryError for a side that cannot be read as asked.
 */
export function resolveSides(
  app: AgreementApp,
  a: string,
  b: string,
  recorded: RecordedJudgeTypes = new Map(),
): [ResolvedSide, ResolvedSide] {
  const fields = fieldsByName(app);
  const parsed = [a, b].map((text) => parseSide(text, (name) => fields.has(name))) as [
    ParsedSide,
    ParsedSide,
  ];
  const named = parsed.map((side) => namedField(app, recorded, fields, side));
  const [first, second] = parsed.map((side, i) => {
    const field = named[i] ?? named[1 - i];
    if (field === null || field === undefined) {
      throw invalidQuery(
        `name the field on one side: ${a} and ${b} leave it out (write reviewers:type.field, say)`,
      );
    }
    return resolved(side, field);
  }) as [ResolvedSide, ResolvedSide];
  if (isNumeric(first) !== isNumeric(second)) {
    throw invalidQuery(
      `${first.text} is ${first.config.dataType} and ${second.text} is ${second.config.dataType}: ` +
        'a numeric field is compared with a numeric one, a category or boolean with a category or boolean',
    );
  }
  return [first, second];
}

/** The ids of the evaluator versions among sides as written (`politeness@2:polite` names one). */
export const evaluatorsNamed = (sides: readonly string[]): string[] =>
  sides.flatMap((text) => {
    const id = EVALUATOR_SIDE.exec(text)?.[1];
    return id === undefined ? [] : [id];
  });

/** An evaluator version neither deployed nor recorded in the workspace. */
export const notDeployed = (id: string) =>
  missing(
    'evaluator',
    id,
    `evaluator ${id} is not deployed: it is not in the app's evaluators, nor a judge version recorded in the workspace`,
  );

export const isNumeric = (side: ResolvedSide): boolean => side.config.dataType === 'NUMERIC';

/** A side's field, when it names one (an evaluator's is its only one when it has a single one). */
function namedField(
  app: AgreementApp,
  recorded: RecordedJudgeTypes,
  fields: ReadonlyMap<string, { type: FeedbackType; config: ScoreConfig }>,
  side: ParsedSide,
): { type: FeedbackType; config: ScoreConfig } | null {
  if (side.population === 'evaluator') {
    const id = side.evaluator as string;
    const typeName =
      app.evaluators.get(parseEvaluatorId(id))?.feedbackType.name ?? recorded.get(id)?.feedbackType;
    if (typeName === undefined) throw notDeployed(id);
    const type = { name: typeName };
    const own = [...fields.values()].filter((entry) => entry.type.name === type.name);
    if (side.field === null) {
      if (own.length === 1) return own[0] ?? null;
      throw invalidQuery(
        `name ${id}'s field: ${id}:${own.map((entry) => entry.config.field).join(` or ${id}:`)}`,
      );
    }
    const found = own.find((entry) => entry.config.field === side.field);
    if (found === undefined) {
      throw invalidQuery(
        `${type.name} has no comparable field ${side.field} (boolean, categorical or numeric): ` +
          `${own.map((entry) => entry.config.field).join(', ') || 'none'}`,
      );
    }
    return found;
  }
  if (side.field === null) return null;
  const found = fields.get(side.field);
  if (found === undefined) {
    throw invalidQuery(
      `${side.field} is no comparable field (boolean, categorical or numeric) of a registered feedback type: write type.field, such as ${[...fields.keys()][0] ?? 'review_verdict.verdict'}`,
    );
  }
  return found;
}

function resolved(
  side: ParsedSide,
  { type, config }: { type: FeedbackType; config: ScoreConfig },
): ResolvedSide {
  if (side.population === 'evaluator') {
    return {
      text: `${side.evaluator}:${config.field}`,
      population: 'evaluator',
      participant: side.participant,
      type,
      config,
      filter: { participant: side.participant as string, feedback_type: type.name },
      several: false,
    };
  }
  const source = SOURCES[side.population];
  const who = side.participant === null ? side.population : side.participant;
  return {
    text: `${who}:${config.name}`,
    population: side.population,
    participant: side.participant,
    type,
    config,
    filter: {
      feedback_type: type.name,
      source,
      ...(side.participant === null ? {} : { participant: side.participant }),
    },
    several: side.participant === null,
  };
}
