import { describe, expect, it } from 'vitest';
import {
  InvalidScoreError,
  SCORE_DATA_TYPES,
  type ScoreConfig,
  ScoreConfigExistsError,
  type ScoreConfigStore,
  scores,
} from '../../src/scores/index.js';
import {
  ContractViolationError,
  checkScoreConfigStore,
  checkScoreSink,
  contractConfigs,
  contractFeedbackScore,
  contractVerdict,
  InMemoryScoreConfigStore,
  InMemoryScoreSink,
} from '../../src/testing/index.js';
import {
  AmnesicStore,
  AppendingSink,
  ArchivedOnCreateStore,
  ClaimingArchiveStore,
  DataTypeDroppingSink,
  DeletingArchiveStore,
  FirstOnlyStore,
  ForgetfulSink,
  InertArchiveStore,
  LossySink,
  MisnamedStatusStore,
  OneAnswerSink,
  OverdeletingSink,
  PrefilledStore,
  PretendArchiveStore,
  RearchivingStore,
  RenamingStore,
  ReorderingSink,
  RestampingSink,
  SourcelessSink,
  SpanlessSink,
  StrayNameStore,
  StrayStatusStore,
  StrictIdSink,
  StrictNameStore,
  StubbornSink,
  TogglingArchiveStore,
  UndeletingSink,
  UnlistingArchiveStore,
  UnsureSink,
} from './broken-adapters.js';

const inMemory = (sink: InMemoryScoreSink) => Promise.resolve(sink.scores());

describe('the ScoreSink contract', () => {
  it('holds for the in-memory sink', async () => {
    await checkScoreSink(() => new InMemoryScoreSink(), inMemory);
  });

  it('fails an appending sink: recording again must replace', async () => {
    await expect(
      checkScoreSink(
        () => new AppendingSink(),
        async (sink) => sink.held,
      ),
    ).rejects.toThrow(
      new ContractViolationError('recording a score again must replace it, not add another'),
    );
  });

  it('fails a first-write-wins sink: the latest value must be kept', async () => {
    await expect(
      checkScoreSink(
        () => new StubbornSink(),
        async (sink) => sink.held.values(),
      ),
    ).rejects.toThrow(
      /evalflow_contract\.rating: the latest value recorded must be kept.*value: recorded 5, kept 2/,
    );
  });

  it('fails a sink that drops a score: every score recorded must be kept', async () => {
    await expect(checkScoreSink(() => new LossySink(), inMemory)).rejects.toThrow(
      /every score recorded, and only those, must be kept \(missing .+, extra none\)/,
    );
  });

  it('names each score missing, apart', async () => {
    // LossySink drops the last of each call: the two verdicts' reasons and the feedback.
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    const feedback = contractFeedbackScore().id;
    await expect(checkScoreSink(() => new LossySink(), inMemory)).rejects.toThrow(
      new RegExp(`\\(missing ${uuid}, ${uuid}, ${feedback}, extra none\\)$`),
    );
  });

  it.each(SCORE_DATA_TYPES)('fails a sink that drops every %s score', async (dataType) => {
    await expect(
      checkScoreSink(() => new DataTypeDroppingSink(dataType), inMemory),
    ).rejects.toThrow(/every score recorded, and only those, must be kept \(missing /);
  });

  it.each([true, false])('fails a sink that reads every yes or no back as %s', async (answer) => {
    await expect(checkScoreSink(() => new OneAnswerSink(answer), inMemory)).rejects.toThrow(
      new RegExp(
        `evalflow_contract\\.resolved: .*\\(value: recorded ${!answer}, kept ${answer}\\)`,
      ),
    );
  });

  it('fails a sink that loses the confidence of a score', async () => {
    await expect(checkScoreSink(() => new UnsureSink(), inMemory)).rejects.toThrow(
      /evalflow_contract\.rating: .*\(metadata: recorded ".*confidence.*0\.75.*", kept "\[\[\\"evaluator/,
    );
  });

  it('fails a sink that loses the span of a score', async () => {
    await expect(checkScoreSink(() => new SpanlessSink(), inMemory)).rejects.toThrow(
      /\(spanId: recorded "00f067aa0ba902b7", kept undefined\)/,
    );
  });

  it('holds for a sink that gives the metadata back with its keys in another order', async () => {
    await checkScoreSink(() => new ReorderingSink(), inMemory);
  });

  it('holds for a sink that refuses to delete an empty id, which no score has', async () => {
    await checkScoreSink(() => new StrictIdSink(), inMemory);
  });

  it('fails a sink that forgets the session', async () => {
    await expect(checkScoreSink(() => new ForgetfulSink(), inMemory)).rejects.toThrow(
      /sessionId: recorded "evalflow-contract-session", kept undefined/,
    );
  });

  it('fails a sink that loses the time a score was given', async () => {
    await expect(checkScoreSink(() => new RestampingSink(), inMemory)).rejects.toThrow(
      /timestamp: recorded "2026-09-29T12:30:00.000Z", kept "2000-01-01T00:00:00Z"/,
    );
  });

  it('fails a sink that loses the metadata of a score', async () => {
    await expect(checkScoreSink(() => new SourcelessSink(), inMemory)).rejects.toThrow(
      /\(metadata: recorded ".*user:evalflow-contract-person.*", kept "\[\]"\)/,
    );
  });

  it('fails a sink whose delete keeps the score, or deletes others', async () => {
    await expect(checkScoreSink(() => new UndeletingSink(), inMemory)).rejects.toThrow(
      'a deleted score must no longer be held',
    );
    await expect(checkScoreSink(() => new OverdeletingSink(), inMemory)).rejects.toThrow(
      /every score recorded, and only those, must be kept \(missing/,
    );
  });

  it('fails a sink that shows scores it was never given', async () => {
    const sink = new InMemoryScoreSink();
    await sink.record([
      { id: 'stray', name: 'x.y', value: 1, dataType: 'NUMERIC', sessionId: 's', source: {} },
    ]);
    await expect(checkScoreSink(() => sink, inMemory)).rejects.toThrow(/extra stray/);
  });
});

describe('the ScoreConfigStore contract', () => {
  it('holds for the in-memory store', async () => {
    await checkScoreConfigStore(() => new InMemoryScoreConfigStore());
  });

  // Each store breaks one rule, and the contract must name that rule.
  it.each<[string, () => ScoreConfigStore, string | RegExp | ContractViolationError]>([
    [
      'lists nothing',
      () => new AmnesicStore(),
      'a config created must be listed by its name, and only it',
    ],
    [
      'lists only some names',
      () => new FirstOnlyStore(),
      'every config created, and only those, must be listed by name',
    ],
    [
      'is not fresh',
      () => new PrefilledStore(contractConfigs()[0] as ScoreConfig),
      'a store holding no configs must list no names',
    ],
    [
      'has an archive that does nothing',
      () => new InertArchiveStore(),
      new ContractViolationError(
        'archiving a name with one active config must archive it and say 1',
      ),
    ],
    [
      'says it archived, and did not',
      () => new PretendArchiveStore(),
      /^a name archived must have the status archived, and only it \(statuses: .*"evalflow_contract\.rating",\{"archived":false\}/,
    ],
    [
      'archives a name twice',
      () => new RearchivingStore(),
      new ContractViolationError('archiving a name again must archive nothing and say 0'),
    ],
    [
      'gives statuses while holding no configs',
      () => new StrayStatusStore({ fromTheStart: true }),
      new ContractViolationError('a store holding no configs must give no statuses'),
    ],
    [
      'gives a status for a name never created',
      () => new StrayStatusStore({ fromTheStart: false }),
      /^every config created must be active \(statuses: .*"evalflow_contract\.stray"/,
    ],
    [
      'creates configs archived',
      () => new ArchivedOnCreateStore(),
      /^every config created must be active \(statuses: .*"evalflow_contract\.rating",\{"archived":true\}/,
    ],
    [
      'lists a name never created',
      () => new StrayNameStore(),
      new ContractViolationError('a config created must be listed by its name, and only it'),
    ],
    [
      'lists a config under another name',
      () => new RenamingStore(),
      new ContractViolationError('every config created, and only those, must be listed by name'),
    ],
    [
      'stops listing a name once archived',
      () => new UnlistingArchiveStore(),
      new ContractViolationError('a name archived must still be listed by name, with the others'),
    ],
    [
      'says it archived a name it never held',
      () => new ClaimingArchiveStore(),
      new ContractViolationError('archiving a name never created must archive nothing and say 0'),
    ],
    [
      'restores the name when archiving again',
      () => new TogglingArchiveStore(),
      /^archiving again, or a name never created, must change no status \(statuses: .*"evalflow_contract\.rating",\{"archived":false\}/,
    ],
    [
      'forgets archived names',
      () => new DeletingArchiveStore(),
      /^a name archived must have the status archived, and only it/,
    ],
  ])('fails a store that %s', async (_, store, violation) => {
    await expect(checkScoreConfigStore(store)).rejects.toThrow(violation);
  });

  it('fails a store that gives a config’s status under another name', async () => {
    const failure = checkScoreConfigStore(() => new MisnamedStatusStore());
    await expect(failure).rejects.toThrow(ContractViolationError);
    await expect(failure).rejects.toThrow(/^every config created must be active \(statuses: /);
  });

  it('holds for a store that refuses to archive a name no config can have', async () => {
    await checkScoreConfigStore(() => new StrictNameStore());
  });
});

describe('the contract subjects', () => {
  it('are valid verdicts from 0 on, each with a trace of its own', () => {
    const traces = [0, 1, 2, 3, 4].map((i) => scores(contractVerdict(i))[0]?.traceId);
    expect(new Set(traces).size).toBe(5);
  });

  it('are configs of every data type, with a description, bounds and categories to keep', () => {
    expect(contractConfigs()).toEqual([
      {
        name: 'evalflow_contract.rating',
        typeName: 'evalflow_contract',
        field: 'rating',
        dataType: 'NUMERIC',
        description: 'How good the answer was',
        minimum: 1,
        maximum: 5,
        categories: [],
      },
      expect.objectContaining({ name: 'evalflow_contract.resolved', dataType: 'BOOLEAN' }),
      expect.objectContaining({
        name: 'evalflow_contract.tone',
        dataType: 'CATEGORICAL',
        categories: ['warm', 'neutral', 'cold'],
      }),
      expect.objectContaining({ name: 'evalflow_contract.reason', dataType: 'TEXT' }),
    ]);
  });
});

describe('the in-memory adapters', () => {
  it('refuse a config name the store has, archived or not', async () => {
    const store = new InMemoryScoreConfigStore();
    const [first] = contractConfigs();
    await store.create(first as ScoreConfig);
    await expect(store.create(first as ScoreConfig)).rejects.toThrow(
      new ScoreConfigExistsError('evalflow_contract.rating'),
    );
    await expect(store.create(first as ScoreConfig)).rejects.toThrow(
      "a score config named 'evalflow_contract.rating' exists already",
    );
    await store.archive('evalflow_contract.rating');
    await expect(store.create(first as ScoreConfig)).rejects.toThrow(ScoreConfigExistsError);
    expect(store.configs()).toEqual([first]);
    expect(store.archived()).toEqual(['evalflow_contract.rating']);
  });

  it('refuse a batch with an invalid score whole, recording nothing', async () => {
    const sink = new InMemoryScoreSink();
    const good = { id: 'a', name: 'x.y', value: 1, dataType: 'NUMERIC', source: {} } as const;
    await expect(sink.record([good, { ...good, id: 'b', value: 'one' } as never])).rejects.toThrow(
      InvalidScoreError,
    );
    expect(sink.scores()).toEqual([]);
  });

  it('read back found scores by id and leave out the rest', async () => {
    const sink = new InMemoryScoreSink();
    const good = { id: 'a', name: 'x.y', value: 1, dataType: 'NUMERIC', source: {} } as const;
    await sink.record([good]);
    const found = await sink.read(['a', 'missing']);
    expect([...found.keys()]).toEqual(['a']);
  });
});
