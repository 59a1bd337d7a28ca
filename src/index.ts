/**
 * zulip-cdk: organization configuration as code for Zulip.
 *
 * @packageDocumentation
 */
export * from './model';
export * from './constructs';
export * from './synth';
export * from './import';
