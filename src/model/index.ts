export * from './errors';
export * from './kinds';
export * from './features';
export * from './permissions';
export * from './desired-state';
export * from './live-state';
export * from './address';
export * from './group-setting';
