import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DESIRED_STATE_FORMAT_VERSION, DesiredStateSchema } from '../model/desired-state';
import type {
  DesiredChannel,
  DesiredChannelFolder,
  DesiredLinkifier,
  DesiredPlayground,
  DesiredSavedSnippet,
  DesiredState,
  DesiredSubscriptionSettings,
  DesiredUser,
  DesiredUserGroup,
} from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import type { Organization } from './organization';
import { compareStrings, stableStringify } from '../synth/stable-json';
import { assertValid } from '../synth/validation';

/** The file name of an organization's desired state. */
export function desiredStateFileName(orgId: string): string {
  return `${orgId}.zulip.json`;
}

/**
 * Builds the desired state of an organization from its constructs, without validating the
 * tree (callers validate first). Orders follow the comments of the DesiredState schema.
 */
export function buildDesiredState(org: Organization): DesiredState {
  const state: DesiredState = {
    formatVersion: DESIRED_STATE_FORMAT_VERSION,
    organization: {
      id: org.orgId,
      path: org.node.path,
      prune: { ...org.prune },
      ...(org.maxRemovals !== undefined && { maxRemovals: org.maxRemovals }),
    },
    channelFolders: [],
    userGroups: [],
    channels: [],
    linkifiers: [],
    playgrounds: [],
    savedSnippets: [],
    users: [],
    subscriptionSettings: [],
  };
  for (const r of org._resources()) {
    const d = r._toDesired();
    switch (r.resourceKind) {
      case 'channelFolder':
        state.channelFolders.push(d as DesiredChannelFolder);
        break;
      case 'userGroup':
        state.userGroups.push(d as DesiredUserGroup);
        break;
      case 'channel':
        state.channels.push(d as DesiredChannel);
        break;
      case 'linkifier':
        state.linkifiers.push(d as DesiredLinkifier);
        break;
      case 'playground':
        state.playgrounds.push(d as DesiredPlayground);
        break;
      case 'savedSnippet':
        state.savedSnippets.push(d as DesiredSavedSnippet);
        break;
      case 'user':
        state.users.push(d as DesiredUser);
        break;
      case 'subscriptionSettings':
        state.subscriptionSettings.push(d as DesiredSubscriptionSettings);
        break;
    }
  }
  // Folders and linkifiers stay in declaration order (_resources() is in that order).
  state.userGroups.sort((a, b) => compareStrings(a.name, b.name));
  state.channels.sort((a, b) => compareStrings(a.name, b.name));
  state.playgrounds.sort(
    (a, b) =>
      compareStrings(a.pygmentsLanguage, b.pygmentsLanguage) || compareStrings(a.name, b.name),
  );
  state.savedSnippets.sort((a, b) => compareStrings(a.title, b.title));
  state.users.sort((a, b) => compareStrings(a.email, b.email));
  state.subscriptionSettings.sort((a, b) => compareStrings(a.channel, b.channel));
  const parsed = DesiredStateSchema.safeParse(state);
  if (!parsed.success) {
    throw new ZulipCdkError(
      'INTERNAL_ERROR',
      `synth produced a desired state that does not match its schema (a bug in zulip-cdk): ${parsed.error.message}`,
      { where: org.node.path },
    );
  }
  // Through JSON and back: what tests see in memory is exactly what the file holds.
  return JSON.parse(stableStringify(parsed.data)) as DesiredState;
}

/** Validates the organization's tree and builds its desired state; throws one ValidationError. */
export function synthesizeOrganization(org: Organization): DesiredState {
  assertValid(org);
  return buildDesiredState(org);
}

/** Writes a desired state to `<dir>/<orgId>.zulip.json`; returns the file name. */
export function writeDesiredState(dir: string, state: DesiredState): string {
  mkdirSync(dir, { recursive: true });
  const file = desiredStateFileName(state.organization.id);
  writeFileSync(join(dir, file), stableStringify(state));
  return file;
}
