import type { Row } from '../backend.js';

// The store's identity: a UUID that migration 4 writes once, when it creates the schema.

export const STORE_ID_QUERY = "SELECT value FROM store_meta WHERE key = 'store_id'";

/** The store's id from the rows of `STORE_ID_QUERY`, which every migrated schema answers. */
export function storeIdOf(rows: readonly Row[]): string {
  const id = rows[0]?.value;
  if (typeof id !== 'string') throw new Error('the store has no id: store_meta lacks store_id');
  return id;
}
