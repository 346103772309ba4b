export * from './naming.js';
export * from './status.js';
export * from './field-error.js';
export * from './meta.js';
export * from './label-selector.js';
export * from './field-selector.js';
export * from './meta-label-selector.js';
export * from './go-duration.js';
