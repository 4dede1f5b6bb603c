import type { z } from 'zod';
import { InvalidFeedbackTypeError } from './errors.js';
import { idProblem } from './ids.js';
import { ScoreSource } from './sources.js';
import { type TargetKind, targetKinds } from './targets.js';

/** A registered kind of feedback: its value schema and the targets it may be given on. */
export interface FeedbackType<Schema extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly targets: readonly TargetKind[];
  /** The value's schema, strict: unknown keys are refused. */
  readonly schema: Schema;
  /** The one population this type is for, when it is for one (a reviewers' type is HUMAN). */
  readonly source: ScoreSource | null;
  /** The score config HUMAN feedback of this type is validated against by the provider. */
  readonly configName: string | null;
}

export interface FeedbackTypeDefinition<Schema extends z.ZodObject> {
  name: string;
  targets: readonly TargetKind[];
  schema: Schema;
  source?: ScoreSource;
  configName?: string;
}

export function defineFeedbackType<Schema extends z.ZodObject>(
  definition: FeedbackTypeDefinition<Schema>,
): FeedbackType<Schema> {
  const { name, targets, schema, source, configName } = definition;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidFeedbackTypeError('a feedback type needs a non-empty name');
  }
  // Commands name the type by this, so it follows the id rule they are held to.
  const problem = idProblem(name);
  if (problem !== null) {
    throw new InvalidFeedbackTypeError(`feedback type name ${name}: ${problem}`);
  }
  const known: readonly string[] = targetKinds;
  if (targets.length === 0 || targets.some((kind) => !known.includes(kind))) {
    throw new InvalidFeedbackTypeError(
      `${name} must declare targets from [${targetKinds.join(', ')}], such as targets: ['turn']`,
    );
  }
  if (source !== undefined && !ScoreSource.options.includes(source)) {
    throw new InvalidFeedbackTypeError(`${name} declares an unknown source ${String(source)}`);
  }
  if (source === 'HUMAN' && !configName) {
    throw new InvalidFeedbackTypeError(
      `${name} is for reviewers and must name its score config (configName)`,
    );
  }
  return Object.freeze({
    name,
    targets: Object.freeze([...new Set(targets)].sort()),
    schema: schema.strict() as Schema,
    source: source ?? null,
    configName: configName ?? null,
  });
}

export interface FeedbackTypeRegistry {
  register(type: FeedbackType): FeedbackType;
  get(name: string): FeedbackType | undefined;
  list(): FeedbackType[];
}

/** Types by name. A name taken by another type is refused; registering the same one is a no-op. */
export function createFeedbackTypeRegistry(
  types: readonly FeedbackType[] = [],
): FeedbackTypeRegistry {
  const byName = new Map<string, FeedbackType>();
  const registry: FeedbackTypeRegistry = {
    register(type) {
      const taken = byName.get(type.name);
      if (taken !== undefined && taken !== type) {
        throw new InvalidFeedbackTypeError(
          `feedback type name '${type.name}' is already registered by another type; choose another name`,
        );
      }
      byName.set(type.name, type);
      return type;
    },
    get: (name) => byName.get(name),
    list: () => [...byName.values()],
  };
  for (const type of types) registry.register(type);
  return registry;
}
