import type Database from 'better-sqlite3';
import type { Row } from '../backend.js';
import { migrations } from '../schema/migrations.js';
import { STORE_ID_QUERY, storeIdOf } from '../schema/store-id.js';

/**
 * Applies the migrations not yet recorded, each in its own IMMEDIATE transaction that first checks
 * again, so two processes opening one file at once apply each migration once. Returns the store's
 * id.
 */
export function migrateSqlite(db: Database.Database): string {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
  )`);
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  for (const migration of migrations) {
    db.transaction(() => {
      if (isApplied.get(migration.version) !== undefined) return;
      for (const statement of migration.statements) {
        if (typeof statement === 'string') db.exec(statement);
        else if ('sqlite' in statement) db.exec(statement.sqlite);
        else db.prepare(statement.text).run(...statement.params());
      }
      record.run(migration.version, migration.name, new Date().toISOString());
    }).immediate();
  }
  return storeIdOf(db.prepare(STORE_ID_QUERY).all() as Row[]);
}
