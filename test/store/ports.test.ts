import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Every store port: the interfaces a consumer may depend on, by file. `Store` is the bundle. */
const PORTS: Record<string, readonly string[]> = {
  'src/store/port.ts': [
    'StoreIdentity',
    'Commands',
    'EventLog',
    'EntityReads',
    'RuleReads',
    'EvaluationRecords',
    'TargetIndexes',
    'ApiRecords',
    'TraceInbox',
    'Leases',
    'ArtifactVersionIndex',
    'BackfillTargetIndex',
  ],
  'src/store/ledger.ts': ['Ledger'],
  'src/store/usage.ts': ['UsageLedger'],
  'src/store/budgets.ts': ['BudgetStore'],
  'src/store/api-records/api-keys.ts': ['ApiKeys'],
  'src/store/api-records/idempotency.ts': ['IdempotencyRecords'],
  'src/store/trace-spans.ts': ['TraceSpans'],
  'src/store/trace-signals.ts': ['TraceSignals'],
  'src/store/review-queues/port.ts': [
    'ReviewQueueDefinitions',
    'ReviewQueueFilling',
    'ReviewerLeases',
    'ReviewQueueReads',
  ],
  'src/store/judge-versions.ts': ['JudgeVersions'],
};
const MAX_MEMBERS = 12;

/** Own members of each interface declared in `file` (inherited ones belong to their own port). */
function memberCounts(file: string): Map<string, number> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const counts = new Map<string, number>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) {
      const names = new Set(statement.members.map((member) => member.name?.getText(source)));
      counts.set(statement.name.text, names.size);
    }
  }
  return counts;
}

describe('store ports', () => {
  const counted = Object.entries(PORTS).flatMap(([file, ports]) => {
    const counts = memberCounts(file);
    return ports.map((port) => ({ port, members: counts.get(port) }));
  });

  it.each(counted)('$port has at most 12 members', ({ port, members }) => {
    expect(members, `${port} is not an interface in its file`).toBeTypeOf('number');
    expect(members).toBeLessThanOrEqual(MAX_MEMBERS);
  });
});
