export * from './stable-json';
export * from './validation';
export * from './manifest';
export * from './run-app';
export * from './json-schema';
export { ERROR_FILE_ENV } from './error-file';
