export * from './account';
export * from './settings';
