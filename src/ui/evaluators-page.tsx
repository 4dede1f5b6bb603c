import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Agreement } from '../client/index.js';
import { ConfusionHeatmap, labelColour, SpendChart, VolumeChart } from './charts.js';
import { ColumnHeads } from './column-heads.js';
import {
  CHOSEN_KEY,
  type Comparison,
  comparisonKey,
  DAY_MS,
  dayOf,
  type EvaluatorsApi,
  type EvaluatorsView,
  type FieldView,
  figure,
  intervalText,
  labelsMeet,
  loadEvaluators,
  modeText,
  noMatchText,
  noQueueText,
  percent,
  readChosen,
  type SpendView,
  spentText,
  totalText,
  trendLabel,
  trendOf,
  unmappedText,
  unpricedText,
  type VersionView,
  windowOf,
} from './evaluators-data.js';
import { describeTarget } from './item-view.js';
import type { JudgeActionsApi, JudgeVersionsApi } from './judge-versions-data.js';
import { JudgeVersionsPanel } from './judge-versions-panel.js';
import { steppedRow } from './keyboard.js';
import { RefusalAlert } from './refusal-alert.js';
import { type Refusal, routeRefusal } from './refusals.js';
import type { ScreenProps } from './screen-props.js';
import { useStateNow } from './state-now.js';
import { submitHandler } from './submit-handler.js';
import { type Disagreement, TargetView } from './target-view.js';

// The evaluators page: per feedback type, its versions with their rules (live or shadow), each
// version's verdicts day by day (bars by label, a trend line of one label's share), and its
// agreement over the same days with the reviewers' field of the queues that review its targets,
// or the side and label mapping the author chose (kept in this browser): Cohen's κ with its 95 %
// interval, the base rates beside it, the confusion matrix as a heatmap, and the disagreements,
// each opening the target as the item view shows it; where nothing can be compared, what would
// make it comparable. Above them, what judging cost per version and day (usage with no known
// price said as such, never drawn as $0). Esc closes an opened target, else goes back to the
// queues.

const DEFAULT_DAYS = 14;

export interface EvaluatorsPageProps
  extends ScreenProps<EvaluatorsApi & JudgeVersionsApi & JudgeActionsApi> {
  /** Signed in from an admin's link: the judges' actions are offered, not only their commands. */
  admin: boolean;
  /** Where the comparisons the author chose are kept: the browser's local storage. */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

interface Asked {
  first: string;
  last: string;
}

/** A disagreement opened, with the two sides it was found between. */
type Opened = { d: Disagreement; a: string; b: string };

export function EvaluatorsPage(props: EvaluatorsPageProps) {
  const { api, storage, admin, onAnnounce, onBack, onSignInRefused, setKeys } = props;
  const today = Date.now();
  const [asked, setAsked] = useState<Asked>({
    first: dayOf(today - (DEFAULT_DAYS - 1) * DAY_MS),
    last: dayOf(today),
  });
  const [chosen, setChosen] = useState(() => readChosen(storage.getItem(CHOSEN_KEY)));
  const choose = useCallback(
    (key: string, comparison: Comparison) => {
      const next = { ...chosen, [key]: comparison };
      storage.setItem(CHOSEN_KEY, JSON.stringify(next));
      setChosen(next);
    },
    [chosen, storage],
  );
  const { shown, problem } = useEvaluatorsView(api, asked, chosen, onSignInRefused);
  const view = shown?.view ?? null;

  const { opened, open, close } = useOpenedDisagreement(view !== null, setKeys, onBack);

  if (opened) {
    return (
      <main aria-label="A disagreement">
        <TargetView api={api} disagreement={opened.d} sides={opened} onClose={close} />
      </main>
    );
  }

  return (
    <main aria-labelledby="evaluators-title" class="evaluators" data-days={shown?.days}>
      <h1 id="evaluators-title">Evaluators</h1>
      <p class="quiet" data-testid="keys-hint">
        <kbd>↑</kbd> <kbd>↓</kbd> move through the disagreements, <kbd>Enter</kbd> opens one,{' '}
        <kbd>Esc</kbd> goes back; <kbd>?</kbd> lists every shortcut.
      </p>
      <WindowForm asked={asked} onAsk={setAsked} />
      {problem && <ReadProblem problem={problem} />}
      {view === null && problem === null && <p role="status">Reading the evaluators…</p>}
      {view && <Spend spend={view.spend} />}
      {view && (
        <JudgeVersionsPanel
          api={api}
          view={view}
          admin={
            admin
              ? {
                  api,
                  onChanged: (done) => {
                    onAnnounce(done);
                    // The same days read again: the rules the action changed.
                    setAsked((days) => ({ ...days }));
                  },
                }
              : null
          }
        />
      )}
      {view?.types.length === 0 && <p>No evaluator has a rule or a verdict in these days.</p>}
      {view?.types.map((type) => (
        <FeedbackTypeSection key={type.feedbackType} type={type} onChoose={choose} onOpen={open} />
      ))}
    </main>
  );
}

/**
 * The evaluators' view for the days asked, read again when they or the comparisons chosen
 * change, with the days it was read for: what a reader (or a test) checks before taking the
 * figures as those of the days just asked for. A refusal is the problem shown instead.
 */
function useEvaluatorsView(
  api: EvaluatorsPageProps['api'],
  asked: Asked,
  chosen: Record<string, Comparison>,
  onSignInRefused: EvaluatorsPageProps['onSignInRefused'],
) {
  const [shown, setShown] = useState<{ days: string; view: EvaluatorsView } | null>(null);
  const [problem, setProblem] = useState<Refusal | null>(null);
  useEffect(() => {
    const window = windowOf(asked.first, asked.last);
    if (typeof window === 'string') {
      setShown(null);
      setProblem({ status: null, message: window, details: [] });
      return;
    }
    setShown(null);
    setProblem(null);
    let current = true;
    loadEvaluators(api, window, chosen).then(
      (loaded) => current && setShown({ days: `${asked.first}/${asked.last}`, view: loaded }),
      (error: unknown) => {
        if (!current) return;
        routeRefusal(error, onSignInRefused, setProblem);
      },
    );
    return () => {
      current = false;
    };
  }, [api, asked, chosen, onSignInRefused]);
  return { shown, problem };
}

/** The days to read: edited here, asked for on Show. */
function WindowForm(props: { asked: Asked; onAsk(asked: Asked): void }) {
  const [draft, setDraft] = useState<Asked>(props.asked);
  return (
    <form class="window" onSubmit={submitHandler(() => props.onAsk(draft))}>
      <DayInput
        label="First day"
        name="first"
        value={draft.first}
        onDay={(first) => setDraft({ ...draft, first })}
      />
      <DayInput
        label="Last day"
        name="last"
        value={draft.last}
        onDay={(last) => setDraft({ ...draft, last })}
      />
      <button type="submit">Show</button>
      <span class="quiet">
        Days in UTC; each version is compared with the reviewers over these days.
      </span>
    </form>
  );
}

function DayInput(props: { label: string; name: string; value: string; onDay(day: string): void }) {
  return (
    <label>
      {props.label}{' '}
      <input
        type="date"
        name={props.name}
        value={props.value}
        onInput={(e) => props.onDay(e.currentTarget.value)}
      />
    </label>
  );
}

function ReadProblem({ problem }: { problem: Refusal }) {
  return (
    <RefusalAlert details={problem.details}>
      The evaluators could not be read: {problem.message}
    </RefusalAlert>
  );
}

/** One feedback type: its versions' rules, then each version's fields against the reviewers. */
function FeedbackTypeSection(props: {
  type: EvaluatorsView['types'][number];
  onChoose(key: string, comparison: Comparison): void;
  onOpen(d: Disagreement, a: string, b: string): void;
}) {
  const { type } = props;
  return (
    <section
      class="feedback-type"
      aria-labelledby={`type-${type.feedbackType}`}
      data-feedback-type={type.feedbackType}
    >
      <h2 id={`type-${type.feedbackType}`}>{type.feedbackType}</h2>
      <RulesTable versions={type.versions} />
      {type.versions.map((version) =>
        version.views.length === 0 ? (
          <p key={version.version} class="quiet">
            {version.version} gave no labelled verdict in these days.
          </p>
        ) : (
          version.views.map((fieldView) => (
            <VersionField
              key={`${version.version}:${fieldView.field.field}`}
              version={version}
              view={fieldView}
              onChoose={props.onChoose}
              onOpen={props.onOpen}
            />
          ))
        ),
      )}
    </section>
  );
}

/**
 * The disagreement opened, and the keys as on the queues: ↑ ↓ through the disagreements (a field
 * keeps its arrows), Enter opens one, Esc closes it, back on the row that opened it once the
 * list is `loaded`, or goes back to the queues.
 */
function useOpenedDisagreement(
  loaded: boolean,
  setKeys: EvaluatorsPageProps['setKeys'],
  onBack: () => void,
) {
  const [opened, setOpened, openedNow] = useStateNow<Opened | null>(null);
  const returnTo = useRef(-1);
  const close = useCallback(() => setOpened(null), [setOpened]);
  const open = useCallback(
    (d: Disagreement, a: string, b: string) => {
      returnTo.current = disagreementRows().indexOf(document.activeElement as HTMLElement);
      setOpened({ d, a, b });
    },
    [setOpened],
  );
  useEffect(() => {
    if (opened === null && loaded && returnTo.current >= 0) {
      disagreementRows()[returnTo.current]?.focus();
      returnTo.current = -1;
    }
  }, [opened, loaded]);
  useEffect(() => {
    setKeys((action) => {
      const opened = openedNow.current;
      if (action.type === 'escape') {
        if (opened) setOpened(null);
        else onBack();
        return true;
      }
      if (action.type !== 'next' && action.type !== 'previous') return false;
      if (opened || document.activeElement?.matches('input, select, textarea')) return false;
      const rows = disagreementRows();
      if (rows.length === 0) return false;
      const at = rows.indexOf(document.activeElement as HTMLElement);
      rows[steppedRow(rows.length, at, action.type)]?.focus();
      return true;
    });
    return () => setKeys(null);
  }, [setKeys, setOpened, openedNow, onBack]);
  return { opened, open, close };
}

/** Every disagreement's button on the page, in the page's order. */
const disagreementRows = () => [
  ...document.querySelectorAll<HTMLElement>('[data-testid=disagreements] > li > button'),
];

function Spend({ spend }: { spend: SpendView | { refused: string } }) {
  if ('refused' in spend) {
    return (
      <section class="spend" aria-labelledby="spend-title">
        <h2 id="spend-title">What judging cost</h2>
        <RefusalAlert>The costs could not be read: {spend.refused}</RefusalAlert>
      </section>
    );
  }
  const { versions, total } = spend;
  return (
    <section class="spend" aria-labelledby="spend-title" data-testid="spend">
      <h2 id="spend-title">
        What judging cost{' '}
        <span class="quiet" data-testid="spend-total">
          ({totalText(total)})
        </span>
      </h2>
      {versions.length === 0 ? (
        <p class="quiet">No evaluator reported usage in these days.</p>
      ) : (
        <>
          {versions.some((v) => v.costUsd > 0) ? (
            <SpendChart versions={versions} title="Spend per evaluator version per day (UTC)" />
          ) : (
            <p class="quiet" data-testid="spend-unpriced-only">
              No usage in these days had a known price, so there is no spend to draw.
            </p>
          )}
          <table class="spend-table" data-testid="spend-table">
            <caption class="sr-only">Each version's spend over these days</caption>
            <ColumnHeads names={['Version', 'Evaluations', 'Cost', 'Without a price']} />
            <tbody>
              {versions.map((v, i) => (
                <tr key={v.version} data-version={v.version}>
                  <th scope="row">
                    <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
                      <rect width="10" height="10" fill={labelColour(i)} />
                    </svg>{' '}
                    {v.version}
                  </th>
                  <td data-testid="spend-evaluations">{v.evaluations}</td>
                  <td data-testid="spend-cost">{spentText(v)}</td>
                  <td data-testid="spend-unpriced">
                    {v.unpricedReports === 0 ? '–' : unpricedText(v.unpricedReports)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function RulesTable({ versions }: { versions: readonly VersionView[] }) {
  return (
    <table class="rules" data-testid="rules">
      <caption class="sr-only">Each version and its rule</caption>
      <ColumnHeads names={['Version', 'Mode', 'Targets', 'Sample rate', 'Rule from']} />
      <tbody>
        {versions.map(({ version, rule, shadow }) => (
          <tr key={version} data-version={version}>
            <th scope="row">{version}</th>
            <td data-testid="mode">{modeText(rule, shadow)}</td>
            <td>{rule?.targets.join(', ') ?? '–'}</td>
            <td>{rule ? percent(rule.sampleRate) : '–'}</td>
            <td>{rule?.origin ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function VersionField(props: {
  version: VersionView;
  view: FieldView;
  onChoose(key: string, comparison: Comparison): void;
  onOpen(d: Disagreement, a: string, b: string): void;
}) {
  const { version, view } = props;
  const { field, series, agreement } = view;
  const follows = trendLabel(series, field.labels);
  const total = series.reduce((sum, day) => sum + day.count, 0);
  const id = `${version.version}:${field.field}`;
  return (
    <article class="version" data-testid="version-field" data-side={id} aria-label={id}>
      <h3>
        {version.version} <span class="quiet">· {field.field}</span>{' '}
        {version.shadow && <span class="badge shadow">shadow</span>}
      </h3>
      <div class="version-grid">
        <div>
          <h4>
            Verdicts per day <span class="quiet">({total} in all)</span>
          </h4>
          <VolumeChart
            series={series}
            labels={field.labels}
            trend={follows === null ? series.map(() => null) : trendOf(series, follows)}
            trendLabel={follows}
            title={`${id}: verdicts per day by label${follows ? `, and the share of ${follows}` : ''}`}
          />
          <p class="legend">
            {field.labels.map((label, i) => (
              <span key={label} class="key">
                <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
                  <rect width="10" height="10" fill={labelColour(i)} />
                </svg>{' '}
                {label}
              </span>
            ))}
            {follows && <span class="key trend-key">— share of {follows}</span>}
          </p>
        </div>
        <div>
          <ComparisonForm
            id={id}
            view={view}
            onChoose={(comparison) =>
              props.onChoose(comparisonKey(version.version, field.field), comparison)
            }
          />
          {agreement === null ? (
            <p class="quiet" data-testid="no-comparison">
              {noQueueText(version)}
            </p>
          ) : 'refused' in agreement ? (
            <RefusalAlert>The agreement could not be read: {agreement.refused}</RefusalAlert>
          ) : agreement.categorical?.matched === 0 ? (
            <p class="quiet" data-testid="no-match">
              {noMatchText(
                version,
                agreement,
                view.reviewed.find((r) => r.side === agreement.b.side),
              )}
            </p>
          ) : !labelsMeet(agreement) ? (
            <p class="quiet" data-testid="unmapped">
              {unmappedText(agreement)}
            </p>
          ) : (
            <AgreementFigures agreement={agreement} onOpen={props.onOpen} />
          )}
        </div>
      </div>
    </article>
  );
}

/**
 * What a version's field is compared with: a side (the reviewers' fields of the queues that
 * review its targets are offered; any side the agreement reads can be written), and which of the
 * other side's labels each of its labels means.
 */
function ComparisonForm(props: { id: string; view: FieldView; onChoose(c: Comparison): void }) {
  const { id, view } = props;
  const current = view.comparison ?? { against: '', mapping: {} };
  const [draft, setDraft] = useState<Comparison>(current);
  const other = view.reviewed.find((r) => r.side === draft.against);
  const ownLabels = view.field.labels;
  // A mapping is asked for where the labels differ (or one was chosen), not where they match.
  const asksMapping =
    Object.keys(draft.mapping).length > 0 ||
    (other !== undefined && ownLabels.some((label) => !other.labels.includes(label)));
  const listId = `sides-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <form
      class="comparison"
      data-testid="comparison"
      onSubmit={submitHandler(() =>
        props.onChoose({ against: draft.against.trim(), mapping: draft.mapping }),
      )}
    >
      <label>
        Compare with{' '}
        <input
          type="text"
          name="against"
          list={listId}
          size={32}
          value={draft.against}
          placeholder="reviewers:type.field"
          onInput={(e) => setDraft({ ...draft, against: e.currentTarget.value })}
        />
      </label>
      <datalist id={listId}>
        {view.reviewed.map((r) => (
          <option key={r.side} value={r.side}>
            {`queue ${r.queues.join(', ')}: ${r.verdicts} in these days`}
          </option>
        ))}
      </datalist>
      {asksMapping && (
        <fieldset class="mapping">
          <legend>Which of {draft.against || 'its'} labels each label means</legend>
          {ownLabels.map((label) =>
            other ? (
              <label key={label}>
                {label} →{' '}
                <select
                  name={`map-${label}`}
                  value={draft.mapping[label] ?? ''}
                  onChange={(e) => setDraft(mapped(draft, label, e.currentTarget.value))}
                >
                  <option value="">{label} (as it is)</option>
                  {other.labels.map((theirs) => (
                    <option key={theirs} value={theirs}>
                      {theirs}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <label key={label}>
                {label} →{' '}
                <input
                  type="text"
                  name={`map-${label}`}
                  size={10}
                  value={draft.mapping[label] ?? ''}
                  onInput={(e) => setDraft(mapped(draft, label, e.currentTarget.value))}
                />
              </label>
            ),
          )}
        </fieldset>
      )}
      <button type="submit">Compare</button>
    </form>
  );
}

/** `draft` with `label` mapped to `to` (an empty `to` keeps the label as it is). */
function mapped(draft: Comparison, label: string, to: string): Comparison {
  const { [label]: _dropped, ...rest } = draft.mapping;
  return { ...draft, mapping: to === '' ? rest : { ...rest, [label]: to } };
}

function AgreementFigures(props: {
  agreement: Agreement;
  onOpen(d: Disagreement, a: string, b: string): void;
}) {
  const { agreement } = props;
  const c = agreement.categorical;
  if (c === null) return <p class="quiet">Not a labelled comparison.</p>;
  const a = agreement.a.side;
  const b = agreement.b.side;
  const interval = c.kappaInterval;
  return (
    <div class="agreement" data-testid="agreement">
      <h4>
        Against {b} <span class="quiet">(as of seq {agreement.asOfSeq})</span>
      </h4>
      <dl class="figures">
        <div>
          <dt>Cohen's κ</dt>
          <dd data-testid="kappa">{figure(c.kappa.value)}</dd>
        </div>
        <div>
          <dt>95 % interval</dt>
          <dd data-testid="kappa-interval">{intervalText(interval)}</dd>
        </div>
        <div>
          <dt>Matched targets</dt>
          <dd data-testid="matched">{c.matched}</dd>
        </div>
        <div>
          <dt>Raw agreement</dt>
          <dd data-testid="raw-agreement">{percent(c.rawAgreement.value)}</dd>
        </div>
      </dl>
      {c.kappa.value === null && <p class="quiet">κ: {c.kappa.reason}</p>}
      {(interval.low === null || interval.high === null) && interval.reason && (
        <p class="quiet">Interval: {interval.reason}</p>
      )}
      <table class="base-rates" data-testid="base-rates">
        <caption>Base rates</caption>
        <ColumnHeads names={['Label', a, b, 'F1']} />
        <tbody>
          {c.perLabel.map((label) => (
            <tr key={label.label} data-label={label.label}>
              <th scope="row">{label.label}</th>
              <td data-testid="rate-a">
                {percent(label.rateA.value)} <span class="quiet">({label.countA})</span>
              </td>
              <td data-testid="rate-b">
                {percent(label.rateB.value)} <span class="quiet">({label.countB})</span>
              </td>
              <td>{figure(label.f1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="quiet heatmap-key">
        Confusion matrix: rows A ({a}), columns B ({b}); the diagonal is where they agree.
      </p>
      <ConfusionHeatmap labels={c.labels} confusion={c.confusion} rowsName={a} columnsName={b} />
      <h4>
        Disagreements <span data-testid="disagreements-total">{agreement.disagreements.total}</span>
        {agreement.disagreements.total > agreement.disagreements.listed.length && (
          <span class="quiet"> (the newest {agreement.disagreements.listed.length} listed)</span>
        )}
      </h4>
      {agreement.disagreements.listed.length === 0 ? (
        <p class="quiet">None.</p>
      ) : (
        <ul class="disagreements" data-testid="disagreements">
          {agreement.disagreements.listed.map((d) => (
            <li key={d.targetKey}>
              <button type="button" onClick={() => props.onOpen(d, a, b)}>
                {describeTarget(d.target)}
              </button>{' '}
              <span class="quiet">
                {String(d.a)} against {String(d.b)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
