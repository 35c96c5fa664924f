import { reading, writes } from './activity-proxies';

export interface DocumentExtractionInput {
  extractionId: string;
}

/**
 * The figures of one uploaded bank statement or pay stub, read off the request path by an activity;
 * the result is stored sealed by the activity, and only its status passes through here. Started by
 * /api/v1/account-details.
 */
export async function documentExtraction(input: DocumentExtractionInput): Promise<'ready' | 'gone' | 'failed'> {
  try {
    return await reading.extractDocument(input);
  } catch {
    await writes.markExtractionFailed(input);
    return 'failed';
  }
}
