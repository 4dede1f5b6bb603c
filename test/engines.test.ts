import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// package.json's `engines` is a promise: npm warns (EBADENGINE) when an installed package asks for
// another Node, and a package that needs a newer Node may not even load. The lockfile records
// what each installed package asks for.

interface Locked {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, Locked>;
};
const promised = manifest.engines.node;

/** `name@version needs RANGE` for each locked package whose engines refuse `node`. */
function refusing(node: string, include: (entry: Locked) => boolean): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (path === '' || range === undefined || !include(entry)) return [];
    if (semver.satisfies(node, range)) return [];
    return [`${path.replace(/^.*node_modules\//, '')}@${entry.version} needs ${range}`];
  });
}

describe("the installed packages' engines", () => {
  it('all take the Node running the tests, so npm install warns of none (CI runs 20 and 24)', () => {
    expect(semver.satisfies(process.version, promised), `engines ${promised}`).toBe(true);
    expect(refusing(process.version, () => true)).toEqual([]);
  });

  it('take, for what the package itself needs, the oldest Node of each major engines names', () => {
    // The dev tools (vite, vitest) need a newer Node 20 than the runtime does; a project that
    // installs evalflow gets the runtime dependencies only. Their oldest Node 20 is 20.6.0, the
    // OpenTelemetry SDK's (2.x), which traces evalflow's own work (docs/traces.md).
    const oldest = promised.split('||').map((range) => semver.minVersion(range.trim())?.version);
    expect(oldest).toEqual(['20.6.0', '24.0.0']);
    for (const node of oldest) {
      expect(
        refusing(node ?? '', (entry) => entry.dev !== true),
        `Node ${node}`,
      ).toEqual([]);
    }
  });
});
