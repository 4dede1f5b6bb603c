import { asNumber, type Backend } from '../backend.js';

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

function whereOf(workspace_id: string, selector: ArtifactVersionSelector) {
  const where = ['workspace_id = ?'];
  const params: unknown[] = [workspace_id];
  if (selector.artifactIds !== undefined) {
    if (selector.artifactIds.length === 0) where.push('1 = 0');
    else {
      where.push(`artifact_id IN (${selector.artifactIds.map(() => '?').join(', ')})`);
      params.push(...selector.artifactIds);
    }
  }
  if (selector.kind !== undefined) {
    where.push('kind = ?');
    params.push(selector.kind);
  }
  // Stored times are `toISOString()` strings, which order as the instants they name.
  if (selector.createdFrom !== undefined) {
    where.push('created_at >= ?');
    params.push(new Date(selector.createdFrom).toISOString());
  }
  if (selector.createdTo !== undefined) {
    where.push('created_at < ?');
    params.push(new Date(selector.createdTo).toISOString());
  }
  if (selector.latestOnly) {
    where.push(`version = (SELECT MAX(latest.version) FROM artifact_versions latest
      WHERE latest.workspace_id = artifact_versions.workspace_id
        AND latest.artifact_id = artifact_versions.artifact_id)`);
  }
  return { where, params };
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
