import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The store's ports are found, not listed: every interface `Store` extends, every interface one of
// those extends, and every interface a port holds as a member (`ledger`, `reviewQueues`, …), so a
// port added to the bundle is counted without anyone remembering to list it here.

const PORT_FILE = resolve('src/store/port.ts');
const STORE_DIR = resolve('src/store');
const MAX_MEMBERS = 12;
/** Bundles for wiring: what they extend is counted, each port on its own. */
const BUNDLES = new Set(['Store', 'ReviewQueueStore']);

const program = ts.createProgram([PORT_FILE], {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();

/** The interface a type node or a member's type names, when it is declared in src/store. */
function storeInterface(type: ts.Type): ts.InterfaceDeclaration | undefined {
  const declaration = type.getSymbol()?.declarations?.[0];
  if (declaration === undefined || !ts.isInterfaceDeclaration(declaration)) return undefined;
  return resolve(declaration.getSourceFile().fileName).startsWith(STORE_DIR)
    ? declaration
    : undefined;
}

/** Every port reachable from `Store`, by name, with its own (not inherited) member names. */
function ports(): Map<string, string[]> {
  const store = program
    .getSourceFile(PORT_FILE)
    ?.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Store',
    );
  if (store === undefined) throw new Error('no interface Store in src/store/port.ts');
  const found = new Map<string, string[]>();
  const visit = (port: ts.InterfaceDeclaration) => {
    if (found.has(port.name.text)) return;
    const source = port.getSourceFile();
    found.set(port.name.text, [...new Set(port.members.map((m) => m.name?.getText(source) ?? ''))]);
    for (const heritage of port.heritageClauses ?? []) {
      for (const extended of heritage.types) {
        const declaration = storeInterface(checker.getTypeAtLocation(extended));
        if (declaration) visit(declaration);
      }
    }
    for (const member of port.members) {
      if (!ts.isPropertySignature(member)) continue;
      const declaration = storeInterface(checker.getTypeAtLocation(member));
      if (declaration) visit(declaration);
    }
  };
  visit(store);
  return found;
}

describe('store ports', () => {
  const found = ports();
  const counted = [...found]
    .filter(([port]) => !BUNDLES.has(port))
    .map(([port, members]) => ({ port, members }));

  it('finds the ports the bundle is made of, its sub-stores and theirs', () => {
    for (const port of ['Commands', 'EventLog', 'EntityReads', 'RuleReads', 'StoreIdentity']) {
      expect(found.has(port), port).toBe(true);
    }
    for (const port of ['Ledger', 'BudgetStore', 'ApiKeys', 'Leases', 'ReviewQueueFilling']) {
      expect(found.has(port), port).toBe(true);
    }
  });

  it.each(counted)(`$port has at most ${MAX_MEMBERS} members`, ({ members }) => {
    expect(members.length, members.join(', ')).toBeLessThanOrEqual(MAX_MEMBERS);
  });
});
