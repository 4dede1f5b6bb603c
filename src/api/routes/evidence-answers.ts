import { AgreementQueryError } from '../../evidence/index.js';
import { refuse } from '../errors.js';

/** What src/evidence cannot answer as asked becomes the rejection it carries. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AgreementQueryError) throw refuse(error.rejection);
    throw error;
  }
}
