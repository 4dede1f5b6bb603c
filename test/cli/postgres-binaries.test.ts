import { describe, expect, it } from 'vitest';
import { ensurePostgres, findPostgresBin } from '../../src/cli/supervision/postgres-binaries.js';

describe("the tests' Postgres", () => {
  it('is DATABASE_URL when it is set, without looking further', () => {
    expect(ensurePostgres({ DATABASE_URL: 'postgres://127.0.0.1:1/x' })).toBe(
      'postgres: DATABASE_URL',
    );
  });

  it("is otherwise Debian's newest installed server, which setup made sure of", () => {
    const bin = findPostgresBin();
    expect(bin).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
    expect(ensurePostgres({})).toContain(`postgres: ${bin}`);
  });
});
