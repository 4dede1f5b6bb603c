import { useEffect, useRef, useState } from 'preact/hooks';
import { ColumnHeads } from './column-heads.js';
import { steppedRow } from './keyboard.js';
import type { QueueSummary } from './queue-types.js';
import { RefusalAlert } from './refusal-alert.js';
import { type Refusal, routeRefusal } from './refusals.js';
import type { ScreenProps } from './screen-props.js';

// The queues this reviewer may work on, each with its progress. ↑ and ↓ move between rows;
// Enter opens the row's queue.

export interface QueueListProps extends Pick<ScreenProps<unknown>, 'onSignInRefused' | 'setKeys'> {
  load(): Promise<QueueSummary[]>;
  onOpen(queueId: string): void;
  onMyReviews(queueId: string): void;
}

export function QueueList(props: QueueListProps) {
  const { load, onSignInRefused, setKeys } = props;
  const [queues, setQueues] = useState<QueueSummary[] | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const table = useRef<HTMLTableElement>(null);

  useEffect(() => {
    load().then(setQueues, (error: unknown) => {
      routeRefusal(error, onSignInRefused, setRefusal);
    });
  }, [load, onSignInRefused]);

  useEffect(() => {
    if (queues && queues.length > 0) table.current?.querySelector<HTMLElement>('button')?.focus();
  }, [queues]);

  useEffect(() => {
    setKeys((action) => {
      if (action.type !== 'next' && action.type !== 'previous') return false;
      const rows = [...(table.current?.querySelectorAll('tbody tr') ?? [])];
      const at = rows.findIndex((row) => row.contains(document.activeElement));
      const next = rows[steppedRow(rows.length, at, action.type)];
      next?.querySelector<HTMLElement>('button')?.focus();
      return next !== undefined;
    });
    return () => setKeys(null);
  }, [setKeys]);

  return (
    <main aria-labelledby="queues-title">
      <h1 id="queues-title">Review queues</h1>
      {refusal && <RefusalAlert>The queues could not be read: {refusal.message}</RefusalAlert>}
      {queues === null && !refusal && <p role="status">Reading the queues…</p>}
      {queues?.length === 0 && <p>There are no review queues in this workspace yet.</p>}
      {queues && queues.length > 0 && (
        <table ref={table} class="queues" data-testid="queues">
          <caption class="sr-only">Each queue with its progress, in verdicts</caption>
          <ColumnHeads
            names={[
              'Queue',
              'Feedback',
              'Pending',
              'Leased',
              'Done',
              'Skipped',
              <span class="sr-only">Actions</span>,
            ]}
          />
          <tbody>
            {queues.map((queue) => (
              <tr key={queue.queueId} data-queue-id={queue.queueId}>
                <th scope="row">{queue.queueId}</th>
                <td>{queue.feedbackType}</td>
                <td>{queue.progress.pending}</td>
                <td>{queue.progress.leased}</td>
                <td>
                  <Progress queue={queue} />
                </td>
                <td>{queue.progress.skipped}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    class="primary"
                    onClick={() => props.onOpen(queue.queueId)}
                    aria-label={`Review queue ${queue.queueId}`}
                  >
                    Review
                  </button>
                  <button
                    type="button"
                    onClick={() => props.onMyReviews(queue.queueId)}
                    aria-label={`My reviews in queue ${queue.queueId}`}
                  >
                    My reviews
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

function Progress({ queue }: { queue: QueueSummary }) {
  const { pending, leased, done } = queue.progress;
  const total = pending + leased + done;
  return (
    <span class="progress">
      <progress
        max={Math.max(total, 1)}
        value={done}
        aria-label={`${done} of ${total} verdicts done in ${queue.queueId}`}
      />
      <span>{done}</span>
    </span>
  );
}
