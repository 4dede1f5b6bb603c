import type { ScoreConfigStore } from '../ports.js';
import { contractConfigs } from './subjects.js';
import { must } from './support.js';

/**
 * Checks that a store lists every config created in it by name: none when fresh, exactly the
 * first after one create, all of them after the rest. Needs no test framework.
 *
 * @param makeStore Gives a store holding no configs yet.
 * @throws ContractViolation naming the first obligation broken.
 */
export async function checkScoreConfigStore<S extends ScoreConfigStore>(
  makeStore: () => S | Promise<S>,
): Promise<void> {
  const store = await makeStore();
  must((await store.names()).length === 0, 'a store holding no configs must list no names');
  const [first, ...rest] = contractConfigs();
  if (first === undefined) throw new Error('the contract type has no scorable field');
  await store.create(first);
  must(
    sameNames(await store.names(), [first.name]),
    'a config created must be listed by its name, and only it',
  );
  for (const config of rest) await store.create(config);
  must(
    sameNames(await store.names(), [first.name, ...rest.map((config) => config.name)]),
    'every config created, and only those, must be listed by name',
  );
}

function sameNames(listed: readonly string[], created: readonly string[]): boolean {
  const held = new Set(listed);
  return held.size === created.length && created.every((name) => held.has(name));
}
