import { ApplicationFailure } from '@temporalio/workflow';
import { MESSAGES, type MessageCode } from '../../domain/messages';

/**
 * A refusal of a case action: the failure type is the spec message code (the API turns it into the
 * HTTP status of domain/case.ts `statusOfRefusal`, the same for every case kind), the message its text.
 */
export function refuse(code: MessageCode | 'validation', message?: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: code,
    message: message ?? (code === 'validation' ? 'Invalid input' : MESSAGES[code]),
    nonRetryable: true,
  });
}
