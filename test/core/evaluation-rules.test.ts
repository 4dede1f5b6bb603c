import { describe, expect, it } from 'vitest';
import {
  createFeedbackTypeRegistry,
  type DecideContext,
  decide,
  EVALUATOR_ID_PART,
  type EvaluationRule,
  EvaluationRuleSchema,
  EvaluatorId,
  emptyState,
  evidenceLine,
  ID_MAX_LENGTH,
  idleForProblem,
  isLive,
  modeOf,
  parseEvaluatorId,
  rulesInForce,
  rulesSetBy,
} from '../../src/core/index.js';
import { evidence, promotion, promotionContext } from './promotion-fixtures.js';

const rule = (evaluator: string, settings: Partial<EvaluationRule> = {}): EvaluationRule =>
  EvaluationRuleSchema.parse({ evaluator, targets: ['turn'], ...settings });

describe('evaluator ids', () => {
  it('are name@version, each part of letters, digits, _ . and -, the whole id anchored', () => {
    expect(EvaluatorId.safeParse('tone@2.1').success).toBe(true);
    expect(EvaluatorId.safeParse('llm_judge-v2@2026.01-rc').success).toBe(true);
    for (const id of ['tone', '@1', 'tone@', ' tone@1', 'tone@1 ', 'to ne@1', 'tone@1@2']) {
      expect(EvaluatorId.safeParse(id).success, id).toBe(false);
    }
    expect(EvaluatorId.safeParse('tone').error?.issues[0]?.message).toBe(
      'an evaluator version is written name@version',
    );
  });

  it('are at most two ids and the @ long', () => {
    const longest = `${'n'.repeat(ID_MAX_LENGTH)}@${'v'.repeat(ID_MAX_LENGTH)}`;
    expect(EvaluatorId.safeParse(longest).success).toBe(true);
    expect(EvaluatorId.safeParse(`${longest}v`).success).toBe(false);
  });

  it('have parts that match EVALUATOR_ID_PART whole', () => {
    expect(EVALUATOR_ID_PART.test('tone_2.1-rc')).toBe(true);
    for (const part of ['', ' tone', 'tone ', 'to@ne', '@']) {
      expect(EVALUATOR_ID_PART.test(part), part).toBe(false);
    }
  });

  it('split at the last @ into name and version', () => {
    expect(parseEvaluatorId('tone@2.1')).toEqual({ name: 'tone', version: '2.1' });
    expect(parseEvaluatorId('a@b@3')).toEqual({ name: 'a@b', version: '3' });
  });
});

describe('rule settings', () => {
  it('take several targets and workspaces, and refuse empty lists', () => {
    const wide = rule('tone@1', {
      targets: ['turn', 'message'],
      filter: { workspaces: ['w1', 'w2'], artifact_kinds: ['report', 'plan'] },
    });
    expect(wide.targets).toEqual(['turn', 'message']);
    for (const settings of [
      { targets: [] },
      { filter: { workspaces: [] } },
      { filter: { artifact_kinds: [] } },
      { filter: { workspaces: [''] } },
      { targets: ['conversation'] },
      { targets: ['thread'], idle_for: '30x' },
    ]) {
      const parsed = EvaluationRuleSchema.safeParse({
        evaluator: 'tone@1',
        targets: ['turn'],
        ...settings,
      });
      expect(parsed.success, JSON.stringify(settings)).toBe(false);
    }
  });

  it('default to sampling everything, enabled, with no filter, and keep the rate within 0 and 1', () => {
    expect(rule('tone@1')).toEqual({
      evaluator: 'tone@1',
      targets: ['turn'],
      sample_rate: 1,
      filter: {},
      enabled: true,
    });
    expect(rule('tone@1', { sample_rate: 0.25 }).sample_rate).toBe(0.25);
    for (const sample_rate of [-0.1, 1.5]) {
      const parsed = EvaluationRuleSchema.safeParse({
        evaluator: 'tone@1',
        targets: ['turn'],
        sample_rate,
      });
      expect(parsed.success, String(sample_rate)).toBe(false);
    }
  });
});

describe('rules in force', () => {
  it("are the defaults, each replaced by the workspace's own, sorted by evaluator id", () => {
    const defaults = [rule('tone@2'), rule('accuracy@1'), rule('tone@1')];
    const own = [rule('tone@1', { sample_rate: 0.5 }), rule('brevity@1')];
    expect(rulesInForce(defaults, own)).toEqual([
      rule('accuracy@1'),
      rule('brevity@1'),
      rule('tone@1', { sample_rate: 0.5 }),
      rule('tone@2'),
    ]);
    expect(rulesInForce([], [])).toEqual([]);
  });
});

describe('the rules an event sets', () => {
  it('are a rule event’s own, and none for any other event', () => {
    const { evaluator, ...settings } = rule('tone@1');
    expect(rulesSetBy({ type: 'evaluation_rule_set', evaluator, ...settings })).toEqual([
      rule('tone@1'),
    ]);
    expect(rulesSetBy({ type: 'thread_ended', thread_id: 't1' })).toEqual([]);
  });
});

describe('an idle time', () => {
  it('fits a rule that targets threads, among other kinds, and no rule without one', () => {
    expect(idleForProblem({ targets: ['thread'], idle_for: '1h' })).toBeNull();
    expect(idleForProblem({ targets: ['turn', 'thread'], idle_for: '1h' })).toBeNull();
    expect(idleForProblem({ targets: ['turn'] })).toBeNull();
    expect(idleForProblem({ targets: ['turn', 'message'], idle_for: '1h' })).toBe(
      'idle_for (idleFor) applies only to rules that target thread, not to turn, message',
    );
  });
});

describe('a live rule', () => {
  it('is enabled, samples something and names the workspace when it names any', () => {
    expect(isLive(rule('tone@1'), 'w1')).toBe(true);
    expect(isLive(rule('tone@1', { sample_rate: 0.01 }), 'w1')).toBe(true);
    expect(isLive(rule('tone@1', { sample_rate: 0 }), 'w1')).toBe(false);
    expect(isLive(rule('tone@1', { enabled: false }), 'w1')).toBe(false);
    expect(isLive(rule('tone@1', { enabled: false, sample_rate: 0 }), 'w1')).toBe(false);
    expect(isLive(rule('tone@1', { filter: { workspaces: ['w1', 'w2'] } }), 'w2')).toBe(true);
    expect(isLive(rule('tone@1', { filter: { workspaces: ['w1'] } }), 'w3')).toBe(false);
  });
});

describe('set_evaluation_rule', () => {
  const context: DecideContext = {
    feedbackTypes: createFeedbackTypeRegistry(),
    evaluators: { targetsOf: (id) => (id === 'tone@1' ? ['turn', 'message'] : undefined) },
  };
  const system = { kind: 'system', name: 'system' };
  const set = (targets: string[]) =>
    decide(
      emptyState(),
      system,
      { type: 'set_evaluation_rule', evaluator: 'tone@1', targets },
      context,
    );

  it('records the rule with its targets sorted once each and its defaults filled in', () => {
    expect(set(['turn', 'message', 'turn'])).toEqual({
      type: 'recorded',
      events: [
        {
          type: 'evaluation_rule_set',
          evaluator: 'tone@1',
          targets: ['message', 'turn'],
          sample_rate: 1,
          filter: {},
          enabled: true,
        },
      ],
    });
  });

  it('refuses target kinds the evaluator does not judge, naming each', () => {
    expect(set(['artifact', 'turn'])).toEqual({
      type: 'validation_failed',
      message: 'tone@1 judges turn, message, not artifact',
      errors: [],
    });
  });

  it('names every kind missing when there are several', () => {
    const wide: DecideContext = { ...context, evaluators: { targetsOf: () => ['turn'] } };
    expect(
      decide(
        emptyState(),
        system,
        { type: 'set_evaluation_rule', evaluator: 'tone@1', targets: ['artifact', 'message'] },
        wide,
      ),
    ).toMatchObject({ message: 'tone@1 judges turn, not artifact, message' });
  });

  const threads: DecideContext = {
    ...context,
    evaluators: { targetsOf: (id) => (id === 'resolution@1' ? ['thread', 'turn'] : undefined) },
  };
  const setThreadRule = (settings: Record<string, unknown>) =>
    decide(
      emptyState(),
      system,
      { type: 'set_evaluation_rule', evaluator: 'resolution@1', ...settings },
      threads,
    );

  it("records a thread rule's idle time as written, and leaves it out when none is given", () => {
    expect(setThreadRule({ targets: ['thread'], idle_for: '1h30m' })).toMatchObject({
      type: 'recorded',
      events: [{ targets: ['thread'], idle_for: '1h30m' }],
    });
    const plain = setThreadRule({ targets: ['thread'] });
    expect(plain.type === 'recorded' && 'idle_for' in (plain.events[0] ?? {})).toBe(false);
  });

  it('refuses an idle time that is no duration, and one on a rule that targets no thread', () => {
    expect(setThreadRule({ targets: ['thread'], idle_for: '30 minutes' })).toMatchObject({
      type: 'validation_failed',
      message: expect.stringContaining(
        "a duration is whole numbers with units (ms, s, m, h, d), such as '30m' or '1h30m', not '30 minutes'",
      ),
    });
    expect(setThreadRule({ targets: ['turn'], idle_for: '30m' })).toEqual({
      type: 'validation_failed',
      message:
        'resolution@1: idle_for (idleFor) applies only to rules that target thread, not to turn',
      errors: [],
    });
  });
});

describe('shadow rules', () => {
  const context: DecideContext = {
    feedbackTypes: createFeedbackTypeRegistry([]),
    evaluators: { targetsOf: (id) => (id === 'tone@2' ? ['turn'] : undefined) },
  };
  const set = (mode: unknown) =>
    decide(
      emptyState(),
      { kind: 'system', name: 'system' },
      { type: 'set_evaluation_rule', evaluator: 'tone@2', targets: ['turn'], mode },
      context,
    );

  it('record their mode, where a live rule records none (live is the default)', () => {
    expect(set('shadow')).toMatchObject({ events: [{ mode: 'shadow' }] });
    for (const mode of ['live', undefined]) {
      const decided = set(mode);
      expect(decided.type).toBe('recorded');
      expect(decided.type === 'recorded' && 'mode' in (decided.events[0] ?? {})).toBe(false);
    }
    expect(modeOf(rule('tone@2'))).toBe('live');
    expect(modeOf(rule('tone@2', { mode: 'shadow' }))).toBe('shadow');
  });

  it('refuse any other mode', () => {
    expect(set('canary')).toMatchObject({
      type: 'validation_failed',
      message: expect.stringContaining('mode'),
    });
  });
});

describe('promotions', () => {
  const promote = (changes: object, actor: object = { kind: 'system', name: 'admin' }) =>
    decide(emptyState(), actor, { ...promotion, ...changes }, promotionContext);

  it('are the system’s alone', () => {
    expect(promote({}, { kind: 'reviewer', id: 'grace' })).toEqual({
      type: 'forbidden',
      message: 'only the system promotes evaluator versions',
    });
  });

  it('name deployed versions of one feedback type, the promoted one judging its targets', () => {
    expect(promote({ evaluator: 'tone@9' })).toMatchObject({ type: 'not_found', id: 'tone@9' });
    expect(promote({ replacing: 'tone@0' })).toMatchObject({ type: 'not_found', id: 'tone@0' });
    expect(promote({ replacing: 'tone@2' })).toMatchObject({
      message: 'tone@2 cannot replace itself',
    });
    expect(promote({ replacing: 'mood@1' })).toMatchObject({
      type: 'validation_failed',
      message:
        'tone@2 gives tone feedback and mood@1 gives mood: a version replaces one of its own feedback type',
    });
    expect(promote({ rule: { targets: ['artifact'] } })).toMatchObject({
      message: 'tone@2 judges turn, message, not artifact',
    });
    expect(promote({ replaced_rule: null })).toMatchObject({
      message: 'replaced_rule is required: the rule tone@1 keeps, disabled',
    });
    expect(promote({ replacing: null })).toMatchObject({
      message: 'replaced_rule is the rule of the version replaced: give replacing too',
    });
  });

  it('go live alone, replacing nothing, when no version is named', () => {
    expect(promote({ replacing: null, replaced_rule: null })).toMatchObject({
      events: [{ rules: [{ evaluator: 'tone@2', enabled: true }], forced: false }],
    });
  });

  it('refuse evidence short of either threshold with its figures, and an undefined κ', () => {
    const short = promote({ evidence: { ...evidence, matched: 12, kappa: 0.5 } });
    expect(short).toEqual({
      type: 'invalid_state',
      message:
        'tone@2 was not promoted: the evidence is short (12 matched targets, fewer than 50; ' +
        'κ 0.500 is below 0.6): κ 0.500 (no interval) over 12 matched targets against ' +
        'reviewers, as of seq 7',
    });
    expect(promote({ evidence: { ...evidence, kappa: null } })).toMatchObject({
      message: expect.stringContaining('(κ is undefined)'),
    });
    // At the thresholds exactly, the evidence suffices.
    expect(promote({ evidence: { ...evidence, matched: 50, kappa: 0.6 } })).toMatchObject({
      type: 'recorded',
      events: [{ shortfalls: [], forced: false }],
    });
  });

  describe('on a backtest', () => {
    const interval = { low: 0.5, high: 0.9, level: 0.95 };
    const backtested = {
      ...evidence,
      interval,
      replaced: {
        compared: 'tone@1:warm',
        matched: 80,
        kappa: 0.2,
        interval,
        raw_agreement: 0.6,
      },
      backtest: {
        held_out: 90,
        kappa_difference: 0.44,
        difference_interval: { low: 0.2, high: 0.6, level: 0.95 },
        mcnemar_p: 0.01,
      },
    };
    const backtestWith = (changes: object, backtest: object = {}) =>
      promote({
        evidence: { ...backtested, ...changes, backtest: { ...backtested.backtest, ...backtest } },
      });

    it('promote on held-out targets enough for an interval, beating the replaced version', () => {
      expect(backtestWith({})).toMatchObject({
        type: 'recorded',
        events: [{ evidence: { backtest: { held_out: 90 } }, shortfalls: [], forced: false }],
      });
    });

    it('refuse a held-out set too small for an interval, and a tuning that gained nothing', () => {
      expect(backtestWith({ interval: null })).toEqual({
        type: 'invalid_state',
        message:
          'tone@2 was not promoted: the evidence is short (the held-out set is too small: 80 ' +
          'compared targets give κ no interval): κ 0.640 (no interval) over 80 matched targets ' +
          'against reviewers on its 90 held-out targets, as of seq 7',
      });
      for (const [difference, text] of [
        [0, '0.000'],
        [-0.1, '-0.100'],
        [null, 'undefined'],
      ] as const) {
        expect(backtestWith({}, { kappa_difference: difference })).toMatchObject({
          type: 'invalid_state',
          message: expect.stringContaining(`(no gain over tone@1:warm: κ difference ${text})`),
        });
      }
      // Going live beside the others, there is nothing to beat.
      expect(
        promote({
          replacing: null,
          replaced_rule: null,
          evidence: { ...backtested, replaced: null },
        }),
      ).toMatchObject({ type: 'recorded', events: [{ shortfalls: [] }] });
    });

    it('refuse backtest figures that cannot be', () => {
      expect(backtestWith({}, { held_out: -1 }).type).toBe('validation_failed');
      expect(backtestWith({}, { mcnemar_p: 1.5 }).type).toBe('validation_failed');
      expect(backtestWith({}, { kappa_difference: 2.5 }).type).toBe('validation_failed');
    });
  });

  it('write their evidence in one line, κ and its interval to three decimals', () => {
    const agreement = { compared: 'tone@2', raw_agreement: 0.9, matched: 64 };
    expect(
      evidenceLine({
        ...agreement,
        kappa: 0.71234,
        interval: { low: 0.6, high: 0.8, level: 0.95 },
      }),
    ).toBe('κ 0.712 (95 % interval 0.600–0.800) over 64 matched targets');
    expect(evidenceLine({ ...agreement, kappa: null, interval: null })).toBe(
      'κ undefined (no interval) over 64 matched targets',
    );
  });

  it('record a forced promotion as forced, with what it fell short of', () => {
    expect(promote({ evidence: { ...evidence, kappa: 0.1 }, force: true })).toMatchObject({
      type: 'recorded',
      events: [{ type: 'evaluator_promoted', shortfalls: ['κ 0.100 is below 0.6'], forced: true }],
    });
    // Forcing evidence that suffices is no forced promotion.
    expect(promote({ force: true })).toMatchObject({ events: [{ forced: false }] });
  });

  it('refuse evidence that cannot be: κ outside [-1, 1], a negative count', () => {
    expect(promote({ evidence: { ...evidence, kappa: 1.5 } }).type).toBe('validation_failed');
    expect(promote({ evidence: { ...evidence, matched: -1 } }).type).toBe('validation_failed');
    expect(promote({ min_matched: 0 }).type).toBe('validation_failed');
  });
});
