import { beforeAll, describe, expect, it } from 'vitest';
import { categoricalAgreement, numericAgreement } from '../../src/agreement/index.js';
import type { EvaluatorPromoted } from '../../src/core/index.js';
import {
  type AgreementQuery,
  AgreementQueryError,
  compareSides,
  preparePromotion,
  queueDisagreements,
} from '../../src/evidence/index.js';
import type { Store, StoreOptions } from '../../src/store/index.js';
import { clockStart, DAY, judgesApp, storeVerdicts } from './stored-verdicts.js';
import {
  latestOfVersion2,
  reviewersMajority,
  reviewersWarmth,
  version1,
  version2Warmth,
} from './verdict-data.js';

// Agreement over stored verdicts, run unchanged on every store adapter (sqlite.test.ts,
// postgres.test.ts): the data of verdict-data.ts, stored, then compared. Where a figure is named
// here, it is scikit-learn's, scipy's or krippendorff's on the same data (the reference test runs
// those very arrays, test/agreement/fixtures.ts "stored verdicts: ..."); every other figure must
// equal src/agreement's on the arrays the store should have aligned.

export type OpenStore = (options: StoreOptions) => Promise<Store>;

const iso = (ms: number) => new Date(ms).toISOString();

export function evidenceContract(adapter: string, open: OpenStore) {
  describe(`agreement over the ${adapter} store's verdicts`, () => {
    let store: Store;
    let clock = clockStart;
    const ws = 'judges';
    beforeAll(async () => {
      store = await open({
        feedbackTypes: judgesApp.feedbackTypes,
        evaluators: judgesApp.evaluators,
        scoreConfigs: judgesApp.scoreConfigs,
        now: () => new Date(clock),
      });
      await storeVerdicts(store, ws, (ms) => {
        clock = ms;
      });
      return () => store.close();
    });

    const compare = (a: string, b: string, extra: Partial<AgreementQuery> = {}) =>
      compareSides(store, judgesApp, { workspaceId: ws, a, b, targetKind: 'message', ...extra });

    it("compares a version's latest generation with the reviewers' majority, as scikit-learn does", async () => {
      const report = await compare('politeness@2:polite', 'reviewers');
      expect([report.a.side, report.b.side, report.kind]).toEqual([
        'politeness@2:polite',
        'reviewers:politeness.polite',
        'categorical',
      ]);
      const figures = report.categorical;
      expect(figures).toEqual(
        categoricalAgreement(latestOfVersion2, reviewersMajority, { labels: ['false', 'true'] }),
      );
      expect(figures?.matched).toBe(10);
      expect(figures?.confusion).toEqual([
        [3, 0],
        [1, 6],
      ]);
      expect(figures?.kappa.value).toBeCloseTo(0.7826086956521738, 12);
      expect(figures?.rawAgreement.value).toBeCloseTo(0.9, 12);
      expect(figures?.perLabel.map((l) => [l.label, l.rateA.value, l.rateB.value])).toEqual([
        ['false', 0.3, 0.4],
        ['true', 0.7, 0.6],
      ]);
      // m4's two reviewers tie (no verdict there), m9 has no review.
      expect([report.a.verdicts, report.b.verdicts, report.b.ties]).toEqual([12, 10, 1]);
      expect(report.asOfSeq).toBe(await store.head(ws));
    });

    it('keeps each version its own participant, and compares two versions', async () => {
      const first = await compare('politeness@1:polite', 'reviewers');
      expect(first.categorical?.matched).toBe(9);
      expect(first.categorical?.kappa.value).toBeCloseTo(0.3076923076923076, 12);
      const versions = await compare('politeness@1:polite', 'politeness@2:polite');
      expect(versions.categorical).toEqual(
        categoricalAgreement(version1, latestOfVersion2, { labels: ['false', 'true'] }),
      );
      expect(versions.categorical?.kappa.value).toBeCloseTo(0.6071428571428572, 12);
    });

    it('maps labels before comparing: a boolean against pass and fail', async () => {
      const mapped = await compare('politeness@2:polite', 'reviewer:grace:review_verdict.verdict', {
        mapping: { pass: 'true', fail: 'false' },
      });
      expect(mapped.b).toMatchObject({
        side: 'reviewer:grace:review_verdict.verdict',
        participant: 'reviewer:grace',
        population: 'reviewers',
        raters: null,
      });
      expect(mapped.categorical?.matched).toBe(6);
      expect(mapped.categorical?.kappa.value).toBe(1);
      expect(mapped.mapping).toEqual({ pass: 'true', fail: 'false' });
      // Unmapped, every label differs: the matrix lists all four, and nothing agrees.
      const unmapped = await compare(
        'politeness@2:polite',
        'reviewer:grace:review_verdict.verdict',
      );
      expect(unmapped.categorical?.labels).toEqual(['false', 'true', 'pass', 'fail']);
      expect(unmapped.categorical?.rawAgreement.value).toBe(0);
      expect(unmapped.disagreements.total).toBe(6);
    });

    it('reads one reviewer, and how the reviewers agree among themselves', async () => {
      const pair = await compare('reviewer:grace:politeness.polite', 'reviewer:ada');
      expect(pair.b.side).toBe('reviewer:ada:politeness.polite');
      expect(pair.categorical?.matched).toBe(8);
      expect(pair.categorical?.kappa.value).toBeCloseTo(0.4666666666666667, 12);
      const all = await compare('politeness@2:polite', 'reviewers');
      expect(all.b.raters).toEqual({
        raters: 3,
        pairableTargets: 8,
        cohenKappa: null,
        fleissKappa: expect.objectContaining({ value: null, code: 'unequal_ratings' }),
        krippendorffAlpha: { value: expect.closeTo(0.5584415584415584, 12) },
      });
      expect(all.a.raters).toBeNull();
    });

    it("reads the users' ratings, their majority per message, a tie counted", async () => {
      const users = await compare('users:helpfulness.helpful', 'politeness@2:polite');
      expect(users.a).toMatchObject({ population: 'users', verdicts: 2, ties: 1 });
      expect(users.categorical?.matched).toBe(2);
      expect(users.categorical?.kappa.value).toBe(1);
      expect(users.a.raters?.cohenKappa).toBeNull();
    });

    it('compares numbers: Pearson, Spearman, MAE and RMSE of the reviewers’ mean', async () => {
      const report = await compare('politeness@2:warmth', 'reviewers');
      expect(report.kind).toBe('numeric');
      expect(report.b.side).toBe('reviewers:politeness.warmth');
      expect(report.numeric).toEqual(numericAgreement(version2Warmth, reviewersWarmth));
      expect(report.numeric?.pearson.value).toBeCloseTo(0.8595168589208885, 12);
      expect(report.numeric?.spearman.value).toBeCloseTo(0.7647058823529412, 12);
      expect(report.numeric?.mae.value).toBeCloseTo(0.6666666666666666, 12);
      // scikit-learn's 0.7071067811865476: √½.
      expect(report.numeric?.rmse.value).toBeCloseTo(Math.SQRT1_2, 12);
      expect(report.b.raters).toBeNull();
      // The largest differences first.
      expect(report.disagreements.listed.map((d) => Math.abs(Number(d.a) - Number(d.b)))).toEqual([
        1, 1, 0.5, 0.5, 0.5, 0.5,
      ]);
    });

    it('slices by when verdicts were given and by target kind', async () => {
      const late = await compare('politeness@2:polite', 'reviewers', {
        from: iso(clockStart + 2 * DAY),
      });
      // m1-m6 were judged on day 1: only m7, m8, m10, m11 and m12 match.
      expect(late.categorical?.matched).toBe(5);
      expect(late.from).toBe(iso(clockStart + 2 * DAY));
      const early = await compare('politeness@2:polite', 'reviewers', {
        to: iso(clockStart + 2 * DAY),
      });
      expect(early.categorical?.matched).toBe(0);
      expect(early.categorical?.kappa).toMatchObject({ value: null, code: 'no_matched_targets' });
      expect(early.categorical?.kappaInterval).toMatchObject({
        low: null,
        code: 'too_few_matched_targets',
      });
      const everyKind = await compareSides(store, judgesApp, {
        workspaceId: ws,
        a: 'politeness@2:polite',
        b: 'reviewers',
      });
      expect(everyKind.categorical?.matched).toBe(11);
      const turns = await compare('politeness@2:polite', 'reviewers', { targetKind: 'turn' });
      expect(turns.categorical?.matched).toBe(1);
      expect(turns.disagreements.listed[0]?.target).toEqual({ kind: 'turn', run_id: 'r' });
    });

    it('gives a seeded interval with ten matched targets, and says why there is none with nine', async () => {
      const ten = (await compare('politeness@2:polite', 'reviewers')).categorical;
      const again = (await compare('politeness@2:polite', 'reviewers')).categorical;
      expect(ten?.kappaInterval).toEqual(again?.kappaInterval);
      expect(ten?.kappaInterval).toMatchObject({ level: 0.95, resamples: 2000 });
      const interval = ten?.kappaInterval as { low: number; high: number };
      expect(interval.low).toBeLessThanOrEqual(ten?.kappa.value as number);
      expect(interval.high).toBeGreaterThanOrEqual(ten?.kappa.value as number);
      const nine = (await compare('politeness@1:polite', 'reviewers')).categorical;
      expect(nine?.kappaInterval).toEqual({
        low: null,
        high: null,
        code: 'too_few_matched_targets',
        reason: 'too few matched targets (9; an interval needs at least 10)',
      });
    });

    it('counts every disagreement and lists the newest first, up to the limit', async () => {
      const report = await compareSides(store, judgesApp, {
        workspaceId: ws,
        a: 'politeness@2:polite',
        b: 'reviewers',
        limit: 1,
      });
      expect(report.disagreements.total).toBe(2);
      expect(report.disagreements.listed).toEqual([
        {
          target: { kind: 'turn', run_id: 'r' },
          targetKey: 'turn:r',
          a: 'false',
          b: 'true',
          votesA: [],
          votesB: [{ participant: 'reviewer:grace', value: 'true' }],
        },
      ]);
      const m8 = (await compare('politeness@2:polite', 'reviewers')).disagreements.listed;
      expect(m8.map((d) => [d.targetKey, d.a, d.b, d.votesB])).toEqual([
        ['message:t/m8', 'true', 'false', [{ participant: 'reviewer:grace', value: 'false' }]],
      ]);
    });

    it('sends every disagreeing target to a review queue, each once', async () => {
      const send = (extra: Partial<Parameters<typeof queueDisagreements>[2]> = {}) =>
        queueDisagreements(store, judgesApp, {
          workspaceId: ws,
          a: 'politeness@1:polite',
          b: 'reviewers',
          targetKind: 'message',
          queueId: 'second-look',
          by: { kind: 'system', name: 'ops' },
          now: new Date(clock),
          ...extra,
        });
      // politeness@1 disagrees with the reviewers on m2, m5 and m8.
      expect(await send()).toEqual({
        queueId: 'second-look',
        a: 'politeness@1:polite',
        b: 'reviewers:politeness.polite',
        asOfSeq: await store.head(ws),
        disagreements: 3,
        added: 3,
        alreadyQueued: 0,
      });
      expect(await send({ a: 'politeness@2:polite' })).toMatchObject({
        disagreements: 1,
        added: 0,
        alreadyQueued: 1,
      });
      const counts = await store.reviewQueues.counts(ws, 'second-look', new Date(clock));
      expect(counts.items).toBe(3);
      await expect(send({ a: 'politeness@2:polite', targetKind: undefined })).rejects.toMatchObject(
        {
          rejection: {
            type: 'validation_failed',
            message:
              'review queue second-look takes message targets, and the sides also disagree on turn targets: compare one kind (targetKind)',
          },
        },
      );
      await expect(send({ queueId: 'nowhere' })).rejects.toMatchObject({
        rejection: { type: 'not_found', entity: 'review queue', id: 'nowhere' },
      });
      expect((await store.reviewQueues.counts(ws, 'second-look', new Date(clock))).items).toBe(3);
    });

    it('refuses what cannot be compared, saying why', async () => {
      const refusal = async (a: string, b: string) => {
        const error = await compare(a, b).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AgreementQueryError);
        return (error as AgreementQueryError).rejection;
      };
      expect(await refusal('politeness@9:polite', 'reviewers')).toMatchObject({
        type: 'not_found',
        entity: 'evaluator',
        id: 'politeness@9',
      });
      expect(await refusal('politeness@2', 'reviewers')).toMatchObject({
        message: "name politeness@2's field: politeness@2:polite or politeness@2:warmth",
      });
      expect(await refusal('politeness@2:tone', 'reviewers')).toMatchObject({
        type: 'validation_failed',
        message:
          'politeness has no comparable field tone (boolean, categorical or numeric): polite, warmth',
      });
      expect(await refusal('reviewers', 'users')).toMatchObject({
        message: expect.stringContaining('name the field on one side'),
      });
      expect(await refusal('politeness@2:polite', 'politeness@1:warmth')).toMatchObject({
        message: expect.stringContaining(
          'politeness@2:polite is BOOLEAN and politeness@1:warmth is NUMERIC',
        ),
      });
      expect(await refusal('everyone', 'reviewers')).toMatchObject({
        message: expect.stringContaining('a side is name@version[:field]'),
      });
      expect(await refusal('politeness@2:polite', 'reviewers:politeness.nope')).toMatchObject({
        message: expect.stringContaining('politeness.nope is no comparable field'),
      });
      await expect(compare('politeness@2:polite', 'reviewers', { limit: -1 })).rejects.toThrow(
        'limit is a whole number from 0, not -1',
      );
    });
  });

  describe(`promotions on the ${adapter} store's verdicts`, () => {
    let store: Store;
    const ws = 'promotions';
    beforeAll(async () => {
      let clock = clockStart;
      store = await open({
        feedbackTypes: judgesApp.feedbackTypes,
        evaluators: judgesApp.evaluators,
        scoreConfigs: judgesApp.scoreConfigs,
        now: () => new Date(clock),
      });
      await storeVerdicts(store, ws, (ms) => {
        clock = ms;
      });
      return () => store.close();
    });
    const admin = { kind: 'system', name: 'admin' } as const;
    const request = {
      workspaceId: ws,
      evaluator: 'politeness@2',
      replacing: 'politeness@1',
      against: 'reviewers',
      field: 'polite',
      targetKind: 'message',
      minKappa: 0.6,
      minMatched: 50,
    } as const;

    it('refuses short evidence with its figures, changing no rule', async () => {
      const { command } = await preparePromotion(store, judgesApp, request);
      const head = await store.head(ws);
      const outcome = await store.execute({ workspace_id: ws, actor: admin, command });
      expect(outcome).toMatchObject({
        type: 'invalid_state',
        message: expect.stringMatching(
          /^politeness@2 was not promoted: the evidence is short \(10 matched targets, fewer than 50\): κ 0\.\d{3} \(95 % interval -?\d\.\d{3}–\d\.\d{3}\) over 10 matched targets against reviewers:politeness\.polite, as of seq \d+$/,
        ),
      });
      expect(await store.head(ws)).toBe(head);
      expect(await store.rules(ws)).toEqual([]);
    });

    it('switches both rules in one event that keeps the evidence, the replaced version’s beside it', async () => {
      const { command } = await preparePromotion(store, judgesApp, {
        ...request,
        minMatched: 10,
      });
      // The evidence is the comparison measured then, as GET /v1/agreement would answer it.
      const report = await compareSides(store, judgesApp, {
        workspaceId: ws,
        a: 'politeness@2:polite',
        b: 'reviewers',
        targetKind: 'message',
      });
      const outcome = await store.execute({ workspace_id: ws, actor: admin, command });
      expect(outcome.type).toBe('recorded');
      const event = (
        outcome.type === 'recorded' ? outcome.events[0]?.event : null
      ) as EvaluatorPromoted;
      expect(event).toMatchObject({
        type: 'evaluator_promoted',
        evaluator: 'politeness@2',
        replacing: 'politeness@1',
        forced: false,
        shortfalls: [],
        min_kappa: 0.6,
        min_matched: 10,
        evidence: {
          compared: 'politeness@2:polite',
          against: 'reviewers:politeness.polite',
          matched: report.categorical?.matched,
          kappa: report.categorical?.kappa.value,
          interval: { level: 0.95 },
          as_of_seq: report.asOfSeq,
          replaced: { compared: 'politeness@1:polite', matched: 9 },
        },
      });
      expect(
        (await store.rules(ws)).map((r) => [r.evaluator, r.enabled, r.mode ?? 'live', r.targets]),
      ).toEqual([
        ['politeness@1', false, 'live', ['message', 'turn']],
        ['politeness@2', true, 'live', ['message', 'turn']],
      ]);
    });

    it('records a forced promotion as forced, with what the evidence fell short of', async () => {
      const { command } = await preparePromotion(store, judgesApp, {
        ...request,
        evaluator: 'politeness@1',
        replacing: 'politeness@2',
        minKappa: 0.9,
        force: true,
      });
      const outcome = await store.execute({ workspace_id: ws, actor: admin, command });
      expect(outcome).toMatchObject({
        events: [
          {
            event: {
              forced: true,
              shortfalls: [
                expect.stringContaining('fewer than 50'),
                expect.stringMatching(/^κ 0\.\d{3} is below 0\.9$/),
              ],
            },
          },
        ],
      });
    });

    it('refuses a version not deployed and a numeric field before reading anything', async () => {
      await expect(
        preparePromotion(store, judgesApp, { ...request, replacing: 'politeness@7' }),
      ).rejects.toMatchObject({ rejection: { type: 'not_found', id: 'politeness@7' } });
      await expect(
        preparePromotion(store, judgesApp, { ...request, field: 'warmth' }),
      ).rejects.toMatchObject({
        rejection: { message: expect.stringContaining("a promotion is decided on Cohen's κ") },
      });
    });
  });
}
