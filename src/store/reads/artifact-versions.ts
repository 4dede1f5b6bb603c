import { asNumber, type Backend } from '../backend.js';
import { Conditions } from './conditions.js';

// Keyset pages of artifact versions for batch re-evaluation: ordered by (artifact id, version),
// each page starting after the last one's final row, so a page costs the same at any depth.

export interface ArtifactVersionSelector {
  artifactIds?: readonly string[];
  kind?: string;
  /** ISO-8601 instants: versions put at or after `createdFrom` and before `createdTo`. */
  createdFrom?: string;
  createdTo?: string;
  /** Only each artifact's latest version. */
  latestOnly?: boolean;
}

export interface ArtifactVersionKey {
  artifact_id: string;
  version: number;
}

function whereOf(workspace_id: string, selector: ArtifactVersionSelector): Conditions {
  const conditions = new Conditions().add('workspace_id = ?', workspace_id);
  const ids = selector.artifactIds;
  if (ids !== undefined) {
    if (ids.length === 0) conditions.add('1 = 0');
    else conditions.add(`artifact_id IN (${ids.map(() => '?').join(', ')})`, ...ids);
  }
  conditions.equal('kind', selector.kind);
  conditions.between('created_at', selector.createdFrom, selector.createdTo);
  if (selector.latestOnly) {
    conditions.add(`version = (SELECT MAX(latest.version) FROM artifact_versions latest
      WHERE latest.workspace_id = artifact_versions.workspace_id
        AND latest.artifact_id = artifact_versions.artifact_id)`);
  }
  return conditions;
}

export async function countArtifactVersions(
  backend: Backend,
  workspace_id: string,
  selector: ArtifactVersionSelector,
): Promise<number> {
  const { where, params } = whereOf(workspace_id, selector);
  const rows = await backend.read((sql) =>
    sql.all(`SELECT COUNT(*) AS n FROM artifact_versions WHERE ${where.join(' AND ')}`, params),
  );
  return asNumber(rows[0]?.n ?? 0);
}

export async function listArtifactVersions(
  backend: Backend,
  workspace_id: string,
  selector: ArtifactVersionSelector,
  after: ArtifactVersionKey | null,
  limit: number,
): Promise<ArtifactVersionKey[]> {
  const { where, params } = whereOf(workspace_id, selector);
  if (after !== null) {
    where.push('(artifact_id > ? OR (artifact_id = ? AND version > ?))');
    params.push(after.artifact_id, after.artifact_id, after.version);
  }
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT artifact_id, version FROM artifact_versions WHERE ${where.join(' AND ')}
         ORDER BY artifact_id, version LIMIT ?`,
      [...params, limit],
    ),
  );
  return rows.map((row) => ({
    artifact_id: String(row.artifact_id),
    version: asNumber(row.version),
  }));
}
