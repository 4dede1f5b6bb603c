import { z } from 'zod';
import { SCORE_DATA_TYPES, type ScoreConfig } from '../scores/index.js';

// A score config over HTTP (docs/specification.md#score-configs): the score-config routes answer
// it and a review item shows its configs with it, so it is mapped here, once.

export const WireConfig = z.object({
  configId: z.string(),
  name: z.string(),
  isArchived: z.boolean(),
  dataType: z.enum(SCORE_DATA_TYPES).nullable(),
  minValue: z.number().nullable(),
  maxValue: z.number().nullable(),
  categories: z.array(z.string()),
  description: z.string().nullable(),
});

/** A config as the routes answer it; `config` is the app's own, when it knows the name. */
export const wireConfig = (name: string, archived: boolean, config?: ScoreConfig) => ({
  configId: name,
  name,
  isArchived: archived,
  dataType: config?.dataType ?? null,
  minValue: config?.minimum ?? null,
  maxValue: config?.maximum ?? null,
  categories: [...(config?.categories ?? [])],
  description: config?.description ?? null,
});
