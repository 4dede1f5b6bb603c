/**
 * Whether a (participant, target) pair is evaluated at a sample rate. The pair hashes to a fixed
 * point in [0, 1), compared with the rate, so the decision is the same on every retry and replay,
 * and a pair sampled at a rate is sampled at every higher rate (lower rates nest inside higher).
 */
export function isSampled(participant: string, targetKey: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return unitHash(`${participant}|${targetKey}`) < rate;
}

/**
 * FNV-1a (32 bits) over the UTF-16 code units, then murmur3's finalizer so that ids differing in
 * one character spread over the whole range; scaled to [0, 1). Pure, so workflows may use it.
 */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

/**
 * The seed of a backfill's sample: the same fraction picks the same targets in a preview and in
 * its batch, whatever the batch's id, and a smaller fraction's targets lie inside a larger one's.
 */
export const backfillSampleSeed = 'backfill';

/** Whether a backfill with this sample fraction judges the target (by its key). */
export const isInBackfillSample = (targetKey: string, fraction: number): boolean =>
  isSampled(backfillSampleSeed, targetKey, fraction);
