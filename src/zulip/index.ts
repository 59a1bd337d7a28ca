/**
 * The typed Zulip REST API client: HTTP layer, credentials, capabilities, wire schemas and
 * the outgoing-webhook parser.
 *
 * @packageDocumentation
 */
export * from './errors';
export * from './credentials';
export * from './capabilities';
export * from './encode';
export * from './endpoints';
export * from './http-types';
export * from './http';
export * from './client';
export { CLIENT_VERSION, USER_AGENT } from './version';
export * from './wire/common';
export * from './wire/channel';
export * from './wire/subscription';
export * from './wire/channel-folder';
export * from './wire/user-group';
export * from './wire/user';
export * from './wire/linkifier';
export * from './wire/playground';
export * from './wire/realm-domain';
export * from './wire/default-stream-group';
export * from './wire/custom-profile-field';
export * from './wire/saved-snippet';
export * from './wire/register';
export * from './wire/realm';
export * from './wire/user-settings-defaults';
export * from './wire/message';
export * from './wire/navigation-view';
export * from './wire/push';
export * from './wire/webhook';
