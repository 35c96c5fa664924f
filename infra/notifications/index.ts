export * from './config';
export * from './delivery';
export * from './transports';
export * from './templates';
export * from './twilio';
export * from './sms-opt-outs';
