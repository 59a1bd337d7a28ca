/**
 * Organization settings through import: an organization whose settings and permissions were
 * changed through `PATCH /realm` (named groups, a set of users and groups, system groups, time
 * limits, announcement channels) is imported, synthesized and planned against itself: no change,
 * at Zulip 10.2's feature level, Zulip 11's and the newest.
 */
import { hasChanges, plan } from '../../src/engine';
import { FEATURE_LEVELS, supports } from '../../src/model/features';
import { generateApp } from '../../src/import';
import type { ZulipClient } from '../../src/zulip';
import { readEmbedded, synthInProcess, writeApp } from './harness';

async function customise(client: ZulipClient, fl: number): Promise<void> {
  const groups = (await client.getUserGroups()).user_groups;
  const sys = (name: string): number => groups.find((g) => g.name === name)?.id ?? -1;
  const me = (await client.getOwnUser()).user_id;
  const policy = await client.createUserGroup({
    name: 'channel-creators',
    description: 'May create public channels',
    members: [me],
  });
  const general = (await client.getStreams()).streams.find((s) => s.name === 'general');
  await client.updateRealm({
    name: 'Policy org',
    description: 'Settings **reviewed**',
    waiting_period_threshold: 5,
    invite_required: false,
    message_content_edit_limit_seconds: 'unlimited',
    message_content_delete_limit_seconds: 120,
    message_edit_history_visibility_policy: 'moves',
    ...(general ? { new_stream_announcements_stream_id: general.stream_id } : {}),
    ...(supports(fl, 'topicsPolicy') ? { topics_policy: 'disable_empty_topic' } : {}),
    can_create_public_channel_group: { new: policy.group_id ?? -1 },
    can_create_web_public_channel_group: { new: sys('role:nobody') },
    can_manage_all_groups: { new: sys('role:administrators') },
    direct_message_permission_group: {
      new: { direct_members: [me], direct_subgroups: [sys('role:members')] },
    },
  });
}

describe.each([FEATURE_LEVELS.zulip10, FEATURE_LEVELS.zulip11, FEATURE_LEVELS.newest])(
  'at feature level %i',
  (fl) => {
    test('an organization with its own settings and permissions round-trips with no change', async () => {
      const live = await readEmbedded({ featureLevel: fl, prepare: (c) => customise(c, fl) });
      expect(live.organizationSettings?.properties.name).toBe('Policy org');
      const app = generateApp(live);
      const code = Object.values(app.files).join('\n');
      expect(code).toContain("new OrganizationSettings(org, 'settings', {");
      expect(code).toContain("messageContentEditLimitSeconds: 'unlimited'");
      expect(code).toContain('canCreateWebPublicChannelGroup: SystemGroup.NOBODY');
      expect(code).toMatch(/directMessagePermissionGroup: Permission\.anyOf\(\{/);
      const [desired] = synthInProcess(writeApp(app.files));
      const settings = desired!.organizationSettings[0];
      expect(settings?.permissions.canCreatePublicChannelGroup).toBe('channel-creators');
      expect(settings?.properties.newChannelAnnouncementsChannel).toBe('general');
      const result = plan(desired!, live);
      expect(result.changes.map((c) => `${c.action} ${c.address}`)).toEqual([]);
      expect(hasChanges(result)).toBe(false);
    });
  },
);
