import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore } from '../../src/store/index.js';
import { evidenceContract } from './evidence-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'evalflow-evidence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

evidenceContract('SQLite', async (options) => openSqliteStore(join(dir, `${++files}.db`), options));
