import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/config/index.js';

// The image is checked as text, as the compose file is: built in stages, it runs the compiled code
// on Node 24 with production dependencies only, as a user other than root, and reports itself
// healthy only when the API's /readyz answers.

interface Stage {
  name: string | undefined;
  base: string;
  /** Its instructions after FROM, continuation lines joined, comments dropped. */
  instructions: string[];
}

function stages(dockerfile: string): Stage[] {
  const instructions = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const found: Stage[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from?.[1]) found.push({ base: from[1], name: from[2], instructions: [] });
    else found.at(-1)?.instructions.push(line);
  }
  return found;
}

const all = stages(readFileSync('Dockerfile', 'utf8'));
const runtime = all.at(-1) as Stage;
const stage = (name: string) => all.find((candidate) => candidate.name === name);
/** The image a stage starts from, following stages built on stages. */
const rootImage = (start: Stage): string => {
  const parent = stage(start.base);
  return parent ? rootImage(parent) : start.base;
};
const argumentOf = (keyword: string, within: Stage = runtime) =>
  within.instructions
    .filter((line) => line.toUpperCase().startsWith(`${keyword} `))
    .map((line) => line.slice(keyword.length + 1).trim());

describe('Dockerfile', () => {
  it('builds in stages and runs on Node 24', () => {
    expect(all.length).toBeGreaterThan(1);
    expect(rootImage(runtime)).toMatch(/^node:24[.-]/);
  });

  it('compiles in a build stage and keeps only dist, bin, proto and production dependencies', () => {
    const copied = argumentOf('COPY');
    const dependencies = copied.find((args) => args.endsWith('./node_modules'));
    const from = /--from=(\S+)/.exec(dependencies ?? '')?.[1] ?? '';
    // Without scripts (`prepare` builds the page, which the build stage did), then the native
    // addon's own install script.
    expect(argumentOf('RUN', stage(from))).toEqual(
      expect.arrayContaining(['npm ci --omit=dev --ignore-scripts', 'npm rebuild better-sqlite3']),
    );
    expect(copied.some((args) => /^--from=\S+ \/app\/dist \.\/dist$/.test(args))).toBe(true);
    expect(copied).toContain('bin ./bin');
    expect(copied).toContain('proto ./proto');
    expect(copied.some((args) => /\bsrc\b/.test(args))).toBe(false);
    expect(argumentOf('RUN').some((command) => command.includes('npm'))).toBe(false);
  });

  it('runs as a user other than root', () => {
    const user = argumentOf('USER').at(-1);
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
  });

  it('checks its health on /readyz and serves the API by default on an exposed port', () => {
    expect(argumentOf('HEALTHCHECK').join(' ')).toMatch(/\/readyz/);
    expect(argumentOf('EXPOSE')).toEqual(['8787']);
    expect(argumentOf('ENTRYPOINT')).toEqual(['["node", "bin/evalflow.js"]']);
    expect(argumentOf('CMD')).toEqual(['["api"]']);
  });

  it('listens on every interface, and sets only environment variables the code reads', () => {
    const set = argumentOf('ENV').map((assignment) => assignment.split('=')[0] ?? '');
    for (const name of set) expect(Object.keys(ENVIRONMENT), name).toContain(name);
    expect(argumentOf('ENV')).toContain('EVALFLOW_API_HOST=0.0.0.0');
  });
});
