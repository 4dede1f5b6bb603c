import { useEffect, useState } from 'preact/hooks';
import type { JudgeBacktest, RecordedJudgeVersion } from '../client/index.js';
import { counted } from '../core/plurals.js';
import { KappaChart } from './charts.js';
import { ColumnHeads } from './column-heads.js';
import { type EvaluatorsView, figure, intervalText } from './evaluators-data.js';
import { JudgeActions, type JudgeActionsProps, type JudgeAdmin } from './judge-actions.js';
import {
  backtestReading,
  type JudgeVersionsApi,
  type JudgeVersionView,
  loadJudgeVersions,
} from './judge-versions-data.js';
import { RefusalAlert } from './refusal-alert.js';
import { type Refused, refusedBy } from './refused.js';

// The evaluators page's LLM judges: every version declared in code or tuned from the reviewers'
// verdicts, its rule, its κ against the reviewers as of each day (a line), and for a tuned one
// its examples with their provenance, its backtest against its base and what can be done with it
// (`judge-actions.tsx`: an admin's page shadows or promotes it). Nothing is drawn where there is
// no LLM judge.

export function JudgeVersionsPanel(props: {
  api: JudgeVersionsApi;
  view: EvaluatorsView;
  admin: JudgeAdmin | null;
}) {
  const { api, view, admin } = props;
  const [shown, setShown] = useState<JudgeVersionView[] | Refused | null>(null);
  useEffect(() => {
    let current = true;
    setShown(null);
    loadJudgeVersions(api, view).then(
      (versions) => current && setShown(versions),
      (error: unknown) => current && setShown(refusedBy(error)),
    );
    return () => {
      current = false;
    };
  }, [api, view]);
  if (shown === null) return <p role="status">Reading the judges’ versions…</p>;
  if ('refused' in shown) {
    return <RefusalAlert>The judges’ versions could not be read: {shown.refused}</RefusalAlert>;
  }
  if (shown.length === 0) return null;
  return (
    <section class="judges" aria-labelledby="judges-title" data-testid="judge-versions">
      <h2 id="judges-title">LLM judges’ versions</h2>
      <JudgeTable versions={shown} />
      {shown.map((judge) => (
        <JudgeVersionCard key={judge.version.id} judge={judge} admin={admin} />
      ))}
    </section>
  );
}

function JudgeTable({ versions }: { versions: readonly JudgeVersionView[] }) {
  return (
    <table class="rules" data-testid="judge-table">
      <caption class="sr-only">Each judge version, where it comes from and its rule</caption>
      <ColumnHeads names={['Version', 'From', 'Model', 'Rule', 'Examples', 'Held out']} />
      <tbody>
        {versions.map(({ version, mode }) => (
          <tr key={version.id} data-version={version.id}>
            <th scope="row">{version.id}</th>
            <td data-testid="judge-source">
              {version.tunedFrom === null ? 'declared in code' : `tuned from ${version.tunedFrom}`}
            </td>
            <td>{version.model}</td>
            <td data-testid="judge-mode">{mode}</td>
            <td>{version.examples}</td>
            <td>{version.heldOut}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function JudgeVersionCard({ judge, admin }: { judge: JudgeVersionView; admin: JudgeAdmin | null }) {
  const { version, comparison, kappaByDay, recorded } = judge;
  const id = version.id;
  return (
    <article class="version" data-testid="judge-version" data-version={id} aria-label={id}>
      <h3>
        {id} {version.tunedFrom && <span class="quiet">· tuned from {version.tunedFrom}</span>}
      </h3>
      {comparison === null ? (
        <p class="quiet" data-testid="no-reviewers">
          No reviewers’ field to compare {id} with: a review queue of its targets gives one.
        </p>
      ) : (
        <>
          <h4>
            κ against {comparison.against}, as of each day{' '}
            <span class="quiet">(every verdict given until then)</span>
          </h4>
          <KappaChart
            days={kappaByDay}
            title={`${id}:${comparison.field}: κ against ${comparison.against} as of each day`}
          />
        </>
      )}
      {recorded !== null &&
        ('refused' in recorded ? (
          <RefusalAlert>The version could not be read: {recorded.refused}</RefusalAlert>
        ) : (
          <>
            <Examples detail={recorded.detail} />
            {comparison && recorded.backtest && (
              <Backtest
                id={id}
                comparison={comparison}
                shadowTargets={judge.shadowTargets}
                backtest={recorded.backtest}
                admin={admin}
              />
            )}
          </>
        ))}
    </article>
  );
}

function Examples({ detail }: { detail: RecordedJudgeVersion }) {
  return (
    <details data-testid="judge-examples">
      <summary>
        {counted(detail.examples.length, 'example')}, recorded by {detail.recordedBy}
      </summary>
      <table class="examples">
        <caption class="sr-only">Each example, what it teaches and who taught it</caption>
        <ColumnHeads names={['Target', 'Reviewers', 'Judge said', 'Who, and their notes']} />
        <tbody>
          {detail.examples.map((example) => (
            <tr key={example.target} data-target={example.target}>
              <th scope="row">{example.target}</th>
              <td>{example.reviewersLabel}</td>
              <td>{example.judgeLabel}</td>
              <td>
                {example.reviewers
                  .map((r) => `${r.raterId}: ${r.label}${r.note ? ` (${r.note})` : ''}`)
                  .join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** A candidate's backtest, and what can be done with the candidate (its `JudgeActions`). */
function Backtest(
  props: Omit<JudgeActionsProps, 'workspace'> & { backtest: JudgeBacktest | Refused },
) {
  const { backtest, ...forActions } = props;
  const { id } = forActions;
  if ('refused' in backtest) {
    return <RefusalAlert>The backtest could not be read: {backtest.refused}</RefusalAlert>;
  }
  const { statistics, base, workspace } = backtest;
  const { old, new: candidate, kappaDifference, mcnemar } = statistics;
  return (
    <div class="backtest" data-testid="backtest">
      <h4>
        Backtest against {base}{' '}
        <span class="quiet">
          ({statistics.compared} of {statistics.targets} held-out targets compared)
        </span>
      </h4>
      <dl class="figures">
        <dt>κ of {base}</dt>
        <dd data-testid="backtest-old">
          {figure(old.kappa.value)} ({intervalText(old.kappaInterval)})
        </dd>
        <dt>κ of {id}</dt>
        <dd data-testid="backtest-new">
          {figure(candidate.kappa.value)} ({intervalText(candidate.kappaInterval)})
        </dd>
        <dt>Gain</dt>
        <dd data-testid="backtest-gain">
          {figure(kappaDifference.difference.value)} ({intervalText(kappaDifference.interval)})
        </dd>
        <dt>McNemar’s p</dt>
        <dd data-testid="backtest-p">{figure(mcnemar.pValue)}</dd>
        <dt>Verdicts changed</dt>
        <dd data-testid="backtest-changed">{statistics.changed.length}</dd>
      </dl>
      <p data-testid="backtest-reading">{backtestReading(backtest)}</p>
      <JudgeActions {...forActions} workspace={workspace} />
    </div>
  );
}
