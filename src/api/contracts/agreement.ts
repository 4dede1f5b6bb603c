import { z } from 'zod';
import { EvaluatedKindSchema, EvaluatorId } from '../../core/index.js';
import { AgreementReply, WireEvidence } from '../../wire/agreement.js';
import { Written } from '../../wire/entities.js';
import { RejectionBody } from '../errors.js';
import { OPERATORS, READERS } from './callers.js';
import { defineRoutes } from './contract.js';
import { EvaluatorParams, QueueParams } from './params.js';

// Trust in judges over HTTP: how two populations of stored verdicts agree (GET /v1/agreement),
// and promoting a version on that evidence (POST /v1/evaluation-rules/{evaluator}/promote). Sides
// are written as the CLI writes them: `politeness@2:polite`, `reviewers`, `reviewer:grace`,
// `users:helpfulness.helpful` (docs/api.md#agreement).

const instant = z.iso.datetime({ offset: true });
const side = z.string().min(1).max(600);
/** `pass=true`, once or repeated (`map=pass=true&map=fail=false`). */
const mapEntries = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));

/** The slices a comparison and a promotion share. */
const slices = {
  from: instant.optional(),
  to: instant.optional(),
  targetKind: EvaluatedKindSchema.optional(),
};

export const AgreementQuery = z.object({
  /** Side A: `politeness@2:polite`, `reviewers:review_verdict.verdict`, `reviewer:grace`, `users`. */
  a: side,
  /** Side B, written the same way; a population without a field takes side A's. */
  b: side,
  /** Renames a label on both sides: `pass=true`, repeated for each label. */
  map: mapEntries,
  ...slices,
  /** How many disagreeing targets to list (all are counted). */
  limit: z.coerce.number().int().min(0).max(1000).default(100),
});
export { AgreementReply };

export const PromoteBody = z.strictObject({
  /** The version it replaces, of the same feedback type; left out, it goes live beside the others. */
  replacing: EvaluatorId.nullable().optional(),
  /** What its verdicts are checked against: `reviewers`, `reviewer:grace`, `users:type.field`. */
  against: side,
  /** The promoted version's field (default: its type's only comparable field). */
  field: z.string().min(1).optional(),
  /** Renames labels on both sides before comparing: `{"pass": "true", "fail": "false"}`. */
  mapping: z.record(z.string().min(1), z.string().min(1)).default({}),
  ...slices,
  minKappa: z.number().min(-1).max(1),
  minMatched: z.int().min(1),
  /** Promote although the evidence is short (recorded as forced). */
  force: z.boolean().default(false),
  /**
   * Take the evidence from the tuned version's backtest: its held-out targets alone, beside the
   * version it was tuned from, which it replaces. No slice applies.
   */
  backtest: z.boolean().default(false),
});
export const PromoteReply = Written.extend({
  evaluator: z.string(),
  replacing: z.string().nullable(),
  evidence: WireEvidence,
  forced: z.boolean(),
  shortfalls: z.array(z.string()),
});
/** A refused promotion: the core's rejection, with the evidence it fell short on. */
export const PromotionRefusal = RejectionBody.extend({ evidence: WireEvidence.optional() });

export const QueueDisagreementsBody = z.strictObject({
  a: side,
  b: side,
  /** Renames labels on both sides before comparing: `{"pass": "true", "fail": "false"}`. */
  mapping: z.record(z.string().min(1), z.string().min(1)).default({}),
  ...slices,
});
export const QueueDisagreementsReply = z.object({
  queueId: z.string(),
  /** The sides as read, and the workspace's seq when reading began. */
  a: z.string(),
  b: z.string(),
  asOfSeq: z.int(),
  /** Every matched target the sides disagree on: all were given to the queue. */
  disagreements: z.int(),
  added: z.int(),
  /** Queued already (by hand, by routing, by an earlier call): each target is queued once. */
  alreadyQueued: z.int(),
});

export const agreementRoutes = defineRoutes({
  agreement: {
    method: 'GET',
    path: '/v1/agreement',
    allow: READERS,
    tags: ['agreement'],
    summary: 'How two populations of stored verdicts agree on the same targets',
    description:
      'Each side is read once and matched by target: an evaluator version’s latest ' +
      'generation, the reviewers’ or users’ majority (a tie is no verdict), one reviewer. ' +
      'Categorical and boolean fields give the confusion matrix, raw agreement, Cohen’s κ ' +
      'with its 95 % bootstrap interval (seeded), base rates and per-label precision, recall ' +
      'and F1; numeric fields Pearson, Spearman, MAE and RMSE. The disagreeing targets are ' +
      'counted and the newest listed.',
    query: AgreementQuery,
    answers: { 200: AgreementReply },
  },
  queueDisagreements: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/disagreements',
    allow: OPERATORS,
    tags: ['agreement'],
    summary: 'Send every target two populations of verdicts disagree on to a review queue',
    description:
      'Compares the sides as GET /v1/agreement does, then puts every disagreeing target in ' +
      'the queue, each once (a target queued already is counted in `alreadyQueued`). A queue ' +
      'that does not take a disagreeing target’s kind refuses them all: compare one kind.',
    params: QueueParams,
    body: QueueDisagreementsBody,
    answers: { 200: QueueDisagreementsReply },
  },
  promote: {
    method: 'POST',
    path: '/v1/evaluation-rules/:evaluator/promote',
    allow: ['admin'],
    tags: ['rules'],
    summary: 'Promote an evaluator version on the agreement measured now',
    description:
      'Measures the version’s agreement with `against` (Cohen’s κ and the matched targets, ' +
      'the replaced version’s beside it) and, when it meets `minKappa` and `minMatched`, ' +
      'switches the rules in one audited event that keeps the evidence: the version goes live ' +
      'with the replaced version’s settings, and the replaced version is disabled. Short ' +
      'evidence is a 409 with its figures, unless `force` (recorded as forced). With ' +
      '`backtest`, a tuned version is measured on its held-out targets alone, paired with the ' +
      'version it was tuned from: the held-out set must give κ an interval, and κ must gain ' +
      'over that version’s.',
    params: EvaluatorParams,
    body: PromoteBody,
    answers: { 200: PromoteReply },
    refusals: { 409: PromotionRefusal },
  },
});
