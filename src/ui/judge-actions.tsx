import { useState } from 'preact/hooks';
import type { Rule } from './evaluators-data.js';
import {
  type JudgeActionsApi,
  type JudgeComparison,
  PROPOSED_GATE,
  type PromotionGate,
  promoteCommand,
  shadowCommand,
} from './judge-versions-data.js';
import { RefusalAlert } from './refusal-alert.js';
import { refusedBy } from './refused.js';
import { submitHandler } from './submit-handler.js';

// What can be done with a tuned candidate once its backtest is read: shadow it on live traffic,
// or promote it on this backtest through the evidence gate. Signed in from an admin's link, the
// page does it (the API still decides, from the token); a reviewer is shown the commands an admin
// runs instead.

/** An admin's page: the requests it makes, and what it does once one has changed the rules. */
export interface JudgeAdmin {
  api: JudgeActionsApi;
  /** Reads the page again, and says `done` in the page's live region. */
  onChanged(done: string): void;
}

export interface JudgeActionsProps {
  id: string;
  comparison: JudgeComparison;
  /** The kinds a shadow rule judges (its base's rule's); null: the admin names them, by command. */
  shadowTargets: Rule['targets'] | null;
  workspace: string | null;
  /** Signed in from an admin's link, with the requests to make; else null. */
  admin: JudgeAdmin | null;
}

export function JudgeActions(props: JudgeActionsProps) {
  const { admin, ...candidate } = props;
  const { id, comparison, workspace } = candidate;
  if (admin === null) {
    return (
      <>
        <p class="quiet">An admin shadows it on live traffic, or promotes it on this backtest:</p>
        <pre data-testid="judge-commands">
          <code>
            {shadowCommand(id, workspace)}
            {'\n'}
            {promoteCommand(id, comparison, workspace)}
          </code>
        </pre>
      </>
    );
  }
  return <AdminActions {...candidate} {...admin} />;
}

/**
 * The last action on its way, or refused (the API's words). A done one is said in the page's live
 * region by `onChanged`, which reads the page again.
 */
type Outcome = { refused: string } | 'sending' | null;

function AdminActions(props: Omit<JudgeActionsProps, 'admin'> & JudgeAdmin) {
  const { id, comparison, shadowTargets, workspace, api, onChanged } = props;
  const [gate, setGate] = useState<PromotionGate>(PROPOSED_GATE);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const act = (request: () => Promise<unknown>, done: string) => {
    setOutcome('sending');
    request().then(
      () => {
        setOutcome(null);
        onChanged(done);
      },
      (error: unknown) => setOutcome(refusedBy(error)),
    );
  };
  const number = (key: keyof PromotionGate) => (event: Event) =>
    setGate({ ...gate, [key]: Number((event.currentTarget as HTMLInputElement).value) });
  return (
    <form
      class="judge-actions"
      data-testid="judge-actions"
      onSubmit={submitHandler(() =>
        act(
          () => api.promoteOnBacktest(id, comparison, gate),
          `${id} is promoted on its backtest.`,
        ),
      )}
    >
      <label>
        Least κ{' '}
        <input
          name="min-kappa"
          type="number"
          min={-1}
          max={1}
          step={0.05}
          value={gate.minKappa}
          onInput={number('minKappa')}
        />
      </label>{' '}
      <label>
        Least held-out targets compared{' '}
        <input
          name="min-matched"
          type="number"
          min={1}
          step={1}
          value={gate.minMatched}
          onInput={number('minMatched')}
        />
      </label>{' '}
      <button type="submit" disabled={outcome === 'sending'}>
        Promote it on this backtest
      </button>{' '}
      {shadowTargets === null ? (
        <p class="quiet">
          Its base has no rule to shadow beside: <code>{shadowCommand(id, workspace)}</code> with
          the <code>--targets</code> it should judge.
        </p>
      ) : (
        <button
          type="button"
          disabled={outcome === 'sending'}
          onClick={() =>
            act(() => api.shadow(id, shadowTargets), `${id} judges live traffic in shadow.`)
          }
        >
          Shadow it on live traffic
        </button>
      )}
      {typeof outcome === 'object' && outcome !== null && (
        <RefusalAlert testId="judge-action-refused">Refused: {outcome.refused}</RefusalAlert>
      )}
    </form>
  );
}
