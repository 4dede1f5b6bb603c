import { v5 as uuidv5, validate } from 'uuid';
import { ScoreMappingError } from './errors.js';

/**
 * evalflow's namespace for score ids: UUIDv5 of `urn:evalflow:scores` in the URL namespace.
 * Fixed forever: changing it would give every score a second id in every backend.
 */
export const EVALFLOW_SCORE_NAMESPACE = 'bc98d1ae-ead9-5f40-9195-7c3a115ea4a6';

/** artifactr's feedback scores, for teams whose Langfuse projects hold its scores. */
export const ARTIFACTR_SCORE_NAMESPACE = '8d0e3b5c-3f7a-4a51-9c1e-6f2b7d4a9e10';

/** reflexr's feedback scores. */
export const REFLEXR_SCORE_NAMESPACE = '5b8f2a1e-7c3d-4e9a-b6f0-2d1c8e4a7b93';

/** evalr's verdict scores (UUIDv5 of its scores URL), for `scores(verdict, {namespace})`. */
export const EVALR_SCORE_NAMESPACE = '69722402-b499-5666-bdb4-19e55976bd06';

/**
 * The id of the score a piece of feedback gives for one config: UUIDv5 (SHA-1) of
 * `"{envelopeId}/{configName}"`. Recording the same feedback again gives the same ids, so a sink
 * that upserts by id replaces instead of adding. Pass a Python library's namespace to keep the ids
 * a project already holds.
 *
 * @throws ScoreMappingError for an empty envelope id or config name, or a namespace that is not a UUID.
 */
export function scoreId(
  envelopeId: string,
  configName: string,
  namespace: string = EVALFLOW_SCORE_NAMESPACE,
): string {
  if (envelopeId === '' || configName === '') {
    throw new ScoreMappingError('a score id needs an envelope id and a config name');
  }
  return uuidv5(`${envelopeId}/${configName}`, checkedNamespace(namespace));
}

export function checkedNamespace(namespace: string): string {
  if (!validate(namespace)) {
    throw new ScoreMappingError(`a score id namespace is a UUID, not '${namespace}'`);
  }
  return namespace;
}
