import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ScoreConfig, scoreConfigs, scoreValues } from '../../src/scores/index.js';
import { declarations } from './score-config-declarations.js';

interface FixtureCase {
  declaration: string;
  typeName: string;
  about: string;
  configs: ScoreConfig[];
  values: {
    about: string;
    value: Record<string, unknown>;
    scores: { name: string; value: unknown }[];
  }[];
}

const fixture: { cases: FixtureCase[] } = JSON.parse(
  readFileSync(new URL('./score_configs.json', import.meta.url), 'utf8'),
);

function schemaOf(name: string) {
  const schema = declarations[name];
  if (!schema) throw new Error(`score_configs.json names an unknown declaration ${name}`);
  return schema;
}

describe('the score_configs.json fixture', () => {
  it('covers every declaration, once', () => {
    const named = fixture.cases.map((entry) => entry.declaration);
    expect(named.sort()).toEqual(Object.keys(declarations).sort());
  });

  for (const entry of fixture.cases) {
    describe(`${entry.declaration}: ${entry.about}`, () => {
      it('gives exactly the configs the fixture holds', () => {
        const configs = scoreConfigs(schemaOf(entry.declaration), { typeName: entry.typeName });
        expect(configs).toEqual(entry.configs);
      });

      for (const example of entry.values) {
        it(`gives exactly the fixture's scores: ${example.about}`, () => {
          const schema = schemaOf(entry.declaration);
          const pairs = scoreValues(schema, example.value, { typeName: entry.typeName }).map(
            ({ config, value }) => ({ name: config.name, value }),
          );
          expect(pairs).toEqual(example.scores);
        });
      }
    });
  }
});
