import type { ScoreConfigStore } from '../ports.js';
import { contractConfigs } from './contract-subjects.js';
import { must } from './support.js';

const NEVER_CREATED = 'evalflow_contract.never_created';

/**
 * Checks that a store lists every config created in it by name: none when fresh, exactly the
 * first after one create, all of them after the rest, each active. Then that archiving a name
 * archives its one config, which stays listed; that archiving it again, or a name never created,
 * archives nothing; and that the other names stay active. Needs no test framework.
 *
 * @param makeStore Gives a store holding no configs yet.
 * @throws ContractViolationError naming the first obligation broken.
 */
export async function checkScoreConfigStore<S extends ScoreConfigStore>(
  makeStore: () => S | Promise<S>,
): Promise<void> {
  const store = await makeStore();
  must((await store.names()).length === 0, 'a store holding no configs must list no names');
  must((await store.statuses()).size === 0, 'a store holding no configs must give no statuses');
  const [first, ...rest] = contractConfigs();
  if (first === undefined) throw new Error('the contract type has no scorable field');
  await store.create(first);
  must(
    sameNames(await store.names(), [first.name]),
    'a config created must be listed by its name, and only it',
  );
  for (const config of rest) await store.create(config);
  const all = [first.name, ...rest.map((config) => config.name)];
  must(
    sameNames(await store.names(), all),
    'every config created, and only those, must be listed by name',
  );
  await checkStatuses(store, all, new Set(), 'every config created must be active');

  must(
    (await store.archive(first.name)) === 1,
    'archiving a name with one active config must archive it and say 1',
  );
  const archived = new Set([first.name]);
  await checkStatuses(
    store,
    all,
    archived,
    'a name archived must have the status archived, and only it',
  );
  must(
    sameNames(await store.names(), all),
    'a name archived must still be listed by name, with the others',
  );
  must(
    (await store.archive(first.name)) === 0,
    'archiving a name again must archive nothing and say 0',
  );
  must(
    (await store.archive(NEVER_CREATED)) === 0,
    'archiving a name never created must archive nothing and say 0',
  );
  await checkStatuses(
    store,
    all,
    archived,
    'archiving again, or a name never created, must change no status',
  );
}

async function checkStatuses(
  store: ScoreConfigStore,
  names: readonly string[],
  archived: ReadonlySet<string>,
  rule: string,
): Promise<void> {
  const statuses = await store.statuses();
  must(
    statuses.size === names.length &&
      names.every((name) => statuses.get(name)?.archived === archived.has(name)),
    `${rule} (statuses: ${JSON.stringify([...statuses])})`,
  );
}

function sameNames(listed: readonly string[], created: readonly string[]): boolean {
  const held = new Set(listed);
  return held.size === created.length && created.every((name) => held.has(name));
}
