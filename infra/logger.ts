import pino, { type LoggerOptions } from 'pino';
import type { Config } from './config';

/**
 * Personal data never reaches the logs: these paths are censored wherever they appear in a logged
 * object (request bodies, workflow views, errors), plus the Authorization header.
 */
const SENSITIVE_FIELDS = [
  'password',
  'confirmPassword',
  'ssn',
  'itin',
  'alienRegistrationNumber',
  'accessToken',
  'refreshToken',
  'token',
  'otp',
  'income',
  'householdIncome',
  'annualIncome',
  'amount',
  'balance',
  'fileContent',
  'signatureBase64',
];

/** Each sensitive field at the top, one and two levels down, and inside arrays of objects. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...SENSITIVE_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*[*].${f}`, `*.*[*].${f}`]),
];

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, name: string): LoggerOptions {
  return { name, level: config.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, name: string) {
  return pino(loggerOptions(config, name));
}
