export * from './cells';
export * from './decode';
export * from './duplicates';
export * from './format';
export * from './read-rows';
export * from './rows';
