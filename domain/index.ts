export * from './roles';
export * from './envelope';
export * from './messages';
export * from './lease-up';
export * from './opportunity';
export * from './account';
export * from './identity';
export * from './tasks';
