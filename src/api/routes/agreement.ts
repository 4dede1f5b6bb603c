import type { TargetKind } from '../../core/index.js';
import {
  compareSides,
  mappingOf,
  preparePromotion,
  queueDisagreements,
} from '../../evidence/index.js';
import { wireAgreement, wireEvidence } from '../../wire/agreement.js';
import { written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { agreementRoutes } from '../contracts/agreement.js';
import { HTTP_STATUS, HttpRefusal, type RejectionBody } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';
import { answering } from './evidence-answers.js';

// Trust in judges over HTTP (contracts/agreement.ts): how two populations of stored verdicts
// agree, their disagreements sent to a review queue, and promoting a version on that evidence.

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
