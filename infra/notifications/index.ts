export * from './config';
export * from './delivery';
export * from './transports';
export * from './templates';
