import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';

// SQLite serves one engine process, so its leases are held within the store: still one holder
// per name, so two relays in one process never follow the same workspace.

describe('leases of a SQLite store', () => {
  it('go to one caller per name, once each, and to the next once released', async () => {
    const store = openSqliteStore(':memory:', { feedbackTypes: conformanceFeedbackTypes() });
    try {
      const first = await store.leases.take(['relay:a', 'relay:b', 'relay:a']);
      expect(first.map((lease) => lease.name)).toEqual(['relay:a', 'relay:b']);
      expect(await store.leases.take(['relay:a', 'relay:b'])).toEqual([]);
      await first[0]?.release();
      expect((await store.leases.take(['relay:a', 'relay:b'])).map((l) => l.name)).toEqual([
        'relay:a',
      ]);
    } finally {
      await store.close();
    }
  });

  it('count those of some names held right now, each name once', async () => {
    const store = openSqliteStore(':memory:', { feedbackTypes: conformanceFeedbackTypes() });
    try {
      const [a] = await store.leases.take(['relay:a', 'relay:b']);
      expect(await store.leases.countHeld(['relay:a', 'relay:b', 'relay:c', 'relay:a'])).toBe(2);
      await a?.release();
      expect(await store.leases.countHeld(['relay:a', 'relay:b', 'relay:c'])).toBe(1);
      expect(await store.leases.countHeld([])).toBe(0);
    } finally {
      await store.close();
    }
  });
});
