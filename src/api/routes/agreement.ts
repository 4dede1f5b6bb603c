import { z } from 'zod';
import { EvaluatedKindSchema, EvaluatorId, type TargetKind } from '../../core/index.js';
import {
  compareSides,
  mappingOf,
  preparePromotion,
  queueDisagreements,
} from '../../evidence/index.js';
import { AgreementReply, WireEvidence, wireAgreement, wireEvidence } from '../../wire/agreement.js';
import { Written, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { OPERATORS, READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { EvaluatorParams, QueueParams } from '../contracts/params.js';
import { HTTP_STATUS, HttpRefusal, RejectionBody } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';
import { answering } from './evidence-answers.js';

// Trust in judges over HTTP: how two populations of stored verdicts agree (GET /v1/agreement),
// their disagreements sent to a review queue,
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

interface Slices {
  from?: string | undefined;
  to?: string | undefined;
  targetKind?: TargetKind | undefined;
}

/** The slices a comparison, a queueing and a promotion share: only those given. */
function slicesOf({ from, to, targetKind }: Slices) {
  return {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(targetKind ? { targetKind } : {}),
  };
}

export const registerAgreement = bindRoutes(agreementRoutes, {
  agreement: async ({ query, request, deps }) => {
    const { a, b, map, limit } = query;
    return answering(async () =>
      wireAgreement(
        await compareSides(deps.store, deps.app, {
          workspaceId: callerOf(request).workspaceId,
          a,
          b,
          mapping: mappingOf(map),
          limit,
          ...slicesOf(query),
        }),
      ),
    );
  },

  queueDisagreements: async ({ params, body, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    const { a, b, mapping } = body;
    return answering(() =>
      queueDisagreements(deps.store, deps.app, {
        workspaceId,
        queueId: params.queueId,
        a,
        b,
        mapping,
        by: actorOf(principal),
        now: deps.now(),
        ...slicesOf(body),
      }),
    );
  },

  promote: async ({ params, body, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    const { command } = await answering(() =>
      preparePromotion(deps.store, deps.app, {
        workspaceId,
        evaluator: params.evaluator,
        replacing: body.replacing ?? null,
        against: body.against,
        mapping: body.mapping,
        minKappa: body.minKappa,
        minMatched: body.minMatched,
        force: body.force,
        backtest: body.backtest,
        ...(body.field ? { field: body.field } : {}),
        ...slicesOf(body),
      }),
    );
    try {
      const outcome = await execute(deps, request, actorOf(principal), command);
      const event = outcome.events[0]?.event;
      if (event?.type !== 'evaluator_promoted') throw new Error('a promotion recorded no event');
      return {
        ...written(outcome.events),
        evaluator: event.evaluator,
        replacing: event.replacing,
        evidence: wireEvidence(event.evidence),
        forced: event.forced,
        shortfalls: event.shortfalls,
      };
    } catch (error) {
      // Short evidence: the core's refusal, with the figures it was refused on.
      if (error instanceof HttpRefusal && error.body.type === 'invalid_state') {
        throw new HttpRefusal(HTTP_STATUS.invalid_state, {
          ...error.body,
          evidence: wireEvidence(command.evidence),
        } as RejectionBody);
      }
      throw error;
    }
  },
});
