import type { Store } from '../../src/store/index.js';

// Feedback for the migration tests of both backends: two users' helpfulness on one thread, a
// minute apart (`tick` moves the store's clock), the second rating 2.

export async function givenTwoRatings(store: Store, tick: () => void): Promise<void> {
  const system = { kind: 'system', name: 'host' } as const;
  const created = await store.execute({
    workspace_id: 'w',
    actor: system,
    command: { type: 'create_thread', thread_id: 't' },
  });
  if (created.type !== 'recorded') throw new Error(created.message);
  for (const [id, rating] of [
    ['ada', 5],
    ['bo', 2],
  ] as const) {
    tick();
    tick();
    const given = await store.execute({
      workspace_id: 'w',
      actor: { kind: 'user', id },
      command: {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'thread', thread_id: 't' },
        value: { rating },
      },
    });
    if (given.type !== 'recorded') throw new Error(given.message);
  }
}
