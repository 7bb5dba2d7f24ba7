export * from './endpoints';
export * from './envelope';
export * from './events';
export * from './params';
export * from './register';
export * from './settings';
export * from './users';
export * from './version';
