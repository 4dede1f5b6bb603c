import { z } from 'zod';
import { SCORE_DATA_TYPES } from '../../scores/index.js';
import { defineRoutes } from './contract.js';

// The sink's score configs (docs/specification.md#score-configs): created, listed (archived ones
// on request) and retired with isArchived. A config is named by its `configId`, which is its
// name: `{type}.{field}` for a field's config, or a HUMAN type's config name for all of that
// type's field configs at once.

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

export const ListScoreConfigsQuery = z.object({
  includeArchived: z.stringbool().default(false),
});
export const ScoreConfigsReply = z.object({ configs: z.array(WireConfig) });
export const CreateScoreConfigBody = z.strictObject({
  name: z.string().min(1),
  dataType: z.enum(SCORE_DATA_TYPES),
  minValue: z.number().optional(),
  maxValue: z.number().optional(),
  categories: z.array(z.string().min(1)).optional(),
  description: z.string().optional(),
});
export const ArchiveScoreConfigBody = z.strictObject({ isArchived: z.literal(true) });

const tags = ['score configs'];

export const scoreConfigRoutes = defineRoutes({
  scoreConfigs: {
    method: 'GET',
    path: '/v1/score-configs',
    allow: ['system', 'admin', 'reviewer', 'agent'],
    tags,
    summary: 'The score configs, active ones unless includeArchived',
    query: ListScoreConfigsQuery,
    answers: { 200: ScoreConfigsReply },
  },
  createScoreConfig: {
    method: 'POST',
    path: '/v1/score-configs',
    allow: ['admin'],
    tags,
    summary: 'Create a score config; a name that exists is a conflict (configs are never updated)',
    body: CreateScoreConfigBody,
    answers: { 201: WireConfig },
  },
  archiveScoreConfig: {
    method: 'PATCH',
    path: '/v1/score-configs/:configId',
    allow: ['admin'],
    tags,
    summary: 'Retire a score config (isArchived: true); an archived config is never restored',
    params: z.object({ configId: z.string().min(1) }),
    body: ArchiveScoreConfigBody,
    answers: { 200: ScoreConfigsReply },
  },
});
