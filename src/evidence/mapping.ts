import type { LabelMapping } from '../agreement/index.js';
import { invalidQuery } from './errors.js';

/**
 * A label mapping written as `FROM=TO` entries (`pass=true`, `fail=false`), split at the first
 * `=`: the CLI's `--map` and the API's `map` parameter. Each label is renamed once.
 *
 * @throws AgreementQueryError for an entry without `=`, an empty label, or a label named twice.
 */
export function mappingOf(entries: readonly string[]): LabelMapping {
  const mapping: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const from = entry.slice(0, at);
    const to = entry.slice(at + 1);
    if (at < 0 || from === '' || to === '') {
      throw invalidQuery(`a mapping is FROM=TO, such as pass=true, not ${JSON.stringify(entry)}`);
    }
    if (Object.hasOwn(mapping, from)) {
      throw invalidQuery(`label ${from} is mapped twice: to ${mapping[from]} and to ${to}`);
    }
    mapping[from] = to;
  }
  return mapping;
}
