import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AllowedDomain,
  App,
  Channel,
  ChannelFolder,
  CodePlayground,
  CustomProfileField,
  DefaultChannelGroup,
  Linkifier,
  Organization,
  Permission,
  SavedSnippet,
  SubscriptionSettings,
  SystemGroup,
  Testing,
  User,
  UserGroup,
  ValidationError,
} from 'zulip-cdk';
import type {
  ChannelProperty,
  ChannelProps,
  CustomProfileFieldProps,
  DefaultChannelGroupProps,
} from 'zulip-cdk';
import { thrownError } from '../support/errors';

/** One rule: what to declare in organization `acme` (and `other`), and the problem expected. */
interface Case {
  readonly rule: string;
  readonly declare: (org: Organization, other: Organization) => void;
  readonly path: string;
  readonly message: RegExp;
}

const ch = (org: Organization, id: string, props: Partial<ChannelProps> = {}): Channel =>
  new Channel(org, id, { name: id, ...props });

const CASES: Case[] = [
  // The whitespace and length messages, word for word, for each construct that checks them.
  {
    rule: 'channel name surrounding whitespace, the whole message',
    declare: (o) => ch(o, 'ws-whole', { name: 'ws ' }),
    path: 'acme/ws-whole',
    message:
      /(?:^|: )name 'ws ' has leading or trailing whitespace, which Zulip strips: remove it$/m,
  },
  {
    rule: 'folder name surrounding whitespace, the whole message',
    declare: (o) => new ChannelFolder(o, 'folder-ws', { name: ' Ops' }),
    path: 'acme/folder-ws',
    message:
      /(?:^|: )name ' Ops' has leading or trailing whitespace, which Zulip strips: remove it$/m,
  },
  {
    rule: 'folder description too long, the whole message',
    declare: (o) =>
      new ChannelFolder(o, 'folder-long', {
        name: 'Ops-long',
        description: '\u{1F600}'.repeat(1025),
      }),
    path: 'acme/folder-long',
    message: /(?:^|: )description is 1025 characters long; Zulip allows at most 1024: shorten it$/m,
  },
  {
    rule: 'default channel group description too long, the whole message',
    declare: (o) =>
      new DefaultChannelGroup(o, 'group-long', {
        name: 'G-long',
        description: 'd'.repeat(1025),
        channels: [],
      }),
    path: 'acme/group-long',
    message: /(?:^|: )description is 1025 characters long; Zulip allows at most 1024: shorten it$/m,
  },
  {
    rule: 'user full name too long, the whole message',
    declare: (o) =>
      new User(o, 'user-long', { email: 'long@example.com', fullName: 'n'.repeat(101) }),
    path: 'acme/user-long',
    message: /(?:^|: )fullName is 101 characters long; Zulip allows at most 100: shorten it$/m,
  },
  {
    rule: 'user full name surrounding whitespace, the whole message',
    declare: (o) => new User(o, 'user-ws', { email: 'ws@example.com', fullName: 'Ann ' }),
    path: 'acme/user-ws',
    message:
      /(?:^|: )fullName 'Ann ' has leading or trailing whitespace, which Zulip strips: remove it$/m,
  },
  // Props schemas are strict, for JavaScript users too.
  {
    rule: 'unknown property (typo) with a suggestion',
    declare: (o) => new Channel(o, 'typo', { name: 'typo', descripton: 'x' } as ChannelProps),
    path: 'acme/typo',
    message: /unknown property 'descripton' in Channel props: did you mean 'description'\?/,
  },
  {
    rule: 'wrong type',
    declare: (o) =>
      new Channel(o, 'wrongtype', { name: 'x', private: 'yes' } as unknown as ChannelProps),
    path: 'acme/wrongtype',
    message: /property 'private': .*expected boolean/,
  },
  {
    rule: 'a group by name instead of by object',
    declare: (o) =>
      new Channel(o, 'byname', {
        name: 'byname',
        canSendMessageGroup: 'admins',
      } as unknown as ChannelProps),
    path: 'acme/byname',
    message: /property 'canSendMessageGroup': expected a SystemGroup/,
  },
  {
    rule: 'retention days must be positive',
    declare: (o) => ch(o, 'retention', { messageRetentionDays: 0 }),
    path: 'acme/retention',
    message: /property 'messageRetentionDays': expected a positive whole number/,
  },
  {
    rule: 'ignoreChanges takes property names of the kind',
    declare: (o) => ch(o, 'ignore', { ignoreChanges: ['colour'] as unknown as ChannelProperty[] }),
    path: 'acme/ignore',
    message: /property 'ignoreChanges\[0\]'/,
  },
  {
    rule: 'invalid e-mail in members',
    declare: (o) => new UserGroup(o, 'bademail', { name: 'bademail', members: ['alice'] }),
    path: 'acme/bademail',
    message: /property 'members\[0\]': expected a user e-mail address/,
  },
  // Channel names.
  {
    rule: 'channel name too long',
    declare: (o) => ch(o, 'long', { name: 'x'.repeat(61) }),
    path: 'acme/long',
    message: /Channel name too long \(limit: 60 characters\)\. Fix the channel name\./,
  },
  {
    rule: 'channel name empty after strip',
    declare: (o) => ch(o, 'empty', { name: '   ' }),
    path: 'acme/empty',
    message: /Channel name can't be empty\./,
  },
  {
    rule: 'channel name control character',
    declare: (o) => ch(o, 'control', { name: 'ab\u0000c' }),
    path: 'acme/control',
    message: /Invalid character in channel name, at position 3\./,
  },
  {
    rule: 'channel name surrounding whitespace',
    declare: (o) => ch(o, 'spaces', { name: ' spaces ' }),
    path: 'acme/spaces',
    message: /leading or trailing whitespace, which Zulip strips/,
  },
  {
    rule: 'channel description too long',
    declare: (o) => ch(o, 'longdesc', { description: 'd'.repeat(1025) }),
    path: 'acme/longdesc',
    message: /description is 1025 characters long; Zulip allows at most 1024/,
  },
  {
    rule: 'channel description on several lines',
    declare: (o) => ch(o, 'lines', { description: 'a\nb' }),
    path: 'acme/lines',
    message: /line breaks/,
  },
  // Channel consistency rules.
  {
    rule: 'a private default channel',
    declare: (o) => ch(o, 'privdefault', { private: true, defaultChannel: true }),
    path: 'acme/privdefault',
    message: /a default channel cannot be private/,
  },
  {
    rule: 'a web-public private channel',
    declare: (o) => ch(o, 'privweb', { private: true, webPublic: true }),
    path: 'acme/privweb',
    message: /a web-public channel cannot be private/,
  },
  {
    rule: 'web-public without public history',
    declare: (o) => ch(o, 'webhist', { webPublic: true, historyPublicToSubscribers: false }),
    path: 'acme/webhist',
    message: /a web-public channel needs history public to subscribers/,
  },
  {
    rule: 'public channel with history_public_to_subscribers=false',
    declare: (o) => ch(o, 'pubhist', { historyPublicToSubscribers: false }),
    path: 'acme/pubhist',
    message: /a public channel always has history public to subscribers/,
  },
  {
    rule: 'protected history needs can_create_topic_group = everyone',
    declare: (o) =>
      ch(o, 'topichist', {
        private: true,
        historyPublicToSubscribers: false,
        canCreateTopicGroup: SystemGroup.MEMBERS,
      }),
    path: 'acme/topichist',
    message: /needs canCreateTopicGroup to be SystemGroup\.EVERYONE/,
  },
  {
    rule: 'an archived default channel',
    declare: (o) => ch(o, 'archdefault', { archived: true, defaultChannel: true }),
    path: 'acme/archdefault',
    message: /an archived channel cannot be a default channel/,
  },
  // Permission values.
  {
    rule: 'role:internet is never allowed',
    declare: (o) => ch(o, 'internet', { canSendMessageGroup: SystemGroup.INTERNET }),
    path: 'acme/internet',
    message: /canSendMessageGroup cannot be role:internet/,
  },
  {
    rule: 'role:everyone where allowEveryone is false (channel)',
    declare: (o) => ch(o, 'everyone', { canSubscribeGroup: SystemGroup.EVERYONE }),
    path: 'acme/everyone',
    message: /canSubscribeGroup cannot be role:everyone .*use SystemGroup\.MEMBERS/,
  },
  {
    rule: 'role:everyone where allowEveryone is false (group, inside a set)',
    declare: (o) =>
      new UserGroup(o, 'grpeveryone', {
        name: 'grpeveryone',
        canManageGroup: Permission.anyOf({ users: ['a@x.io'], groups: [SystemGroup.EVERYONE] }),
      }),
    path: 'acme/grpeveryone',
    message: /canManageGroup cannot be role:everyone/,
  },
  {
    rule: 'a bad e-mail inside a permission set',
    declare: (o) =>
      ch(o, 'permemail', { canSendMessageGroup: Permission.anyOf({ users: ['bob'] }) }),
    path: 'acme/permemail',
    message: /canSendMessageGroup lists user "bob", which is not an e-mail address/,
  },
  {
    rule: 'a typo or a group name inside Permission.anyOf',
    declare: (o) =>
      ch(o, 'anyoftypo', {
        canSendMessageGroup: Permission.anyOf({ user: ['a@x.io'], groups: ['admins'] } as never),
      }),
    path: 'acme/anyoftypo',
    message: /canSendMessageGroup: Permission.anyOf got unknown property 'user'/,
  },
  {
    rule: 'a deactivated group as a permission value',
    declare: (o) => {
      const old = new UserGroup(o, 'oldgroup', { name: 'oldgroup', deactivated: true });
      ch(o, 'usesold', { canSendMessageGroup: old });
    },
    path: 'acme/usesold',
    message: /refers to user group 'oldgroup' .* which is declared deactivated/,
  },
  // References across organizations.
  {
    rule: 'a group of another organization as a permission value',
    declare: (o, other) => {
      const g = new UserGroup(other, 'foreign', { name: 'foreign' });
      ch(o, 'foreignperm', { canSendMessageGroup: g });
    },
    path: 'acme/foreignperm',
    message:
      /canSendMessageGroup refers to user group other\/foreign, which belongs to organization 'other'/,
  },
  {
    rule: 'a group of another organization as a subgroup',
    declare: (o, other) => {
      const g = new UserGroup(other, 'foreign2', { name: 'foreign2' });
      new UserGroup(o, 'withforeign', { name: 'withforeign', subgroups: [g] });
    },
    path: 'acme/withforeign',
    message: /subgroups refers to user group other\/foreign2/,
  },
  {
    rule: 'a group of another organization as subscribers',
    declare: (o, other) => {
      const g = new UserGroup(other, 'foreign3', { name: 'foreign3' });
      ch(o, 'foreignsubs', { subscribers: { groups: [g] } });
    },
    path: 'acme/foreignsubs',
    message: /subscribers refers to user group other\/foreign3/,
  },
  {
    rule: 'a folder of another organization',
    declare: (o, other) => {
      const f = new ChannelFolder(other, 'foreignfolder', { name: 'F' });
      ch(o, 'foreignfolderuser', { folder: f });
    },
    path: 'acme/foreignfolderuser',
    message: /folder other\/foreignfolder belongs to organization 'other', not to 'acme'/,
  },
  {
    rule: 'subscription settings of a channel of another organization',
    declare: (o, other) => {
      const c = new Channel(other, 'foreignchannel', { name: 'foreignchannel' });
      new SubscriptionSettings(o, 'foreignsettings', { channel: c, pinToTop: true });
    },
    path: 'acme/foreignsettings',
    message: /channel other\/foreignchannel belongs to organization 'other'/,
  },
  // Subscribers.
  {
    rule: 'role:nobody as subscribers',
    declare: (o) => ch(o, 'nobodysubs', { subscribers: { groups: [SystemGroup.NOBODY] } }),
    path: 'acme/nobodysubs',
    message: /subscribers lists role:nobody, which has no members/,
  },
  {
    rule: 'a bad e-mail added with addSubscribers',
    declare: (o) => ch(o, 'addbad').addSubscribers('not-an-email'),
    path: 'acme/addbad',
    message: /subscribers lists "not-an-email", which is not an e-mail address/,
  },
  // Folders.
  {
    rule: 'folder name too long',
    declare: (o) => new ChannelFolder(o, 'longfolder', { name: 'f'.repeat(61) }),
    path: 'acme/longfolder',
    message: /Channel folder name too long \(limit: 60 characters\)/,
  },
  {
    rule: 'folder name empty',
    declare: (o) => new ChannelFolder(o, 'emptyfolder', { name: ' ' }),
    path: 'acme/emptyfolder',
    message: /Channel folder name can't be empty/,
  },
  {
    rule: 'folder description too long',
    declare: (o) =>
      new ChannelFolder(o, 'folderdesc', { name: 'fd', description: 'x'.repeat(1025) }),
    path: 'acme/folderdesc',
    message: /at most 1024/,
  },
  {
    rule: 'an archived folder holding channels',
    declare: (o) => {
      const f = new ChannelFolder(o, 'archfolder', { name: 'Old', archived: true });
      ch(o, 'inarchived', { folder: f });
    },
    path: 'acme/archfolder',
    message: /an archived folder cannot hold channels, but acme\/inarchived is in it/,
  },
  // User groups.
  {
    rule: 'group name too long',
    declare: (o) => new UserGroup(o, 'longgroup', { name: 'g'.repeat(101) }),
    path: 'acme/longgroup',
    message: /User group name cannot exceed 100 characters/,
  },
  {
    rule: 'group name with a forbidden prefix',
    declare: (o) => new UserGroup(o, 'prefix', { name: 'role:admins' }),
    path: 'acme/prefix',
    message: /User group name cannot start with 'role:'/,
  },
  {
    rule: 'group name empty',
    declare: (o) => new UserGroup(o, 'emptygroup', { name: '' }),
    path: 'acme/emptygroup',
    message: /User group name can't be empty!/,
  },
  {
    rule: 'a group that is its own subgroup',
    declare: (o) => {
      const g = new UserGroup(o, 'selfsub', { name: 'selfsub' });
      g.addSubgroups(g);
    },
    path: 'acme/selfsub',
    message: /the group is its own subgroup/,
  },
  {
    rule: 'a subgroup cycle',
    declare: (o) => {
      const a = new UserGroup(o, 'cyc-a', { name: 'cyc-a' });
      const b = new UserGroup(o, 'cyc-b', { name: 'cyc-b', subgroups: [a] });
      a.addSubgroups(b);
    },
    path: 'acme/cyc-a',
    message: /subgroups form a cycle: cyc-a -> cyc-b -> cyc-a/,
  },
  {
    rule: 'a longer subgroup cycle, found from every group in it',
    declare: (o) => {
      const a = new UserGroup(o, 'loop-a', { name: 'loop-a' });
      const b = new UserGroup(o, 'loop-b', { name: 'loop-b', subgroups: [a] });
      const c = new UserGroup(o, 'loop-c', { name: 'loop-c', subgroups: [b] });
      a.addSubgroups(c);
    },
    path: 'acme/loop-b',
    message: /subgroups form a cycle: loop-b -> loop-a -> loop-c -> loop-b/,
  },
  // Linkifiers.
  {
    rule: 'linkifier pattern not RE2',
    declare: (o) =>
      new Linkifier(o, 're2', { pattern: '(?<=a)(?P<id>x)', urlTemplate: 'https://x/{id}' }),
    path: 'acme/re2',
    message: /Bad regular expression/,
  },
  {
    rule: 'linkifier pattern syntax',
    declare: (o) => new Linkifier(o, 'paren', { pattern: '(foo', urlTemplate: 'https://x' }),
    path: 'acme/paren',
    message: /Bad regular expression: missing \)/,
  },
  {
    rule: 'linkifier template variable missing from the pattern',
    declare: (o) =>
      new Linkifier(o, 'tplvar', {
        pattern: '#(?P<id>[0-9]+)',
        urlTemplate: 'https://x/{id}/{hello}',
      }),
    path: 'acme/tplvar',
    message: /Group 'hello' in URL template is not present in linkifier pattern/,
  },
  {
    rule: 'linkifier pattern group missing from the template',
    declare: (o) =>
      new Linkifier(o, 'patgroup', { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://x/' }),
    path: 'acme/patgroup',
    message: /Group 'id' in linkifier pattern is not present in URL template/,
  },
  {
    rule: 'linkifier template not RFC 6570',
    declare: (o) =>
      new Linkifier(o, 'badtpl', { pattern: '#(?P<foo>x)', urlTemplate: 'https://x/{foo' }),
    path: 'acme/badtpl',
    message: /Invalid URL template/,
  },
  // Playgrounds.
  {
    rule: 'playground template without {code}',
    declare: (o) =>
      new CodePlayground(o, 'nocode', {
        name: 'n',
        pygmentsLanguage: 'python',
        urlTemplate: 'https://x/{?test}',
      }),
    path: 'acme/nocode',
    message: /Missing the required variable "code" in the URL template/,
  },
  {
    rule: 'playground template with another variable',
    declare: (o) =>
      new CodePlayground(o, 'twovars', {
        name: 'n2',
        pygmentsLanguage: 'python',
        urlTemplate: 'https://x/{?test,code}',
      }),
    path: 'acme/twovars',
    message: /"code" should be the only variable present in the URL template/,
  },
  {
    rule: 'playground language charset',
    declare: (o) =>
      new CodePlayground(o, 'langchars', {
        name: 'n3',
        pygmentsLanguage: 'py$',
        urlTemplate: 'https://x/{code}',
      }),
    path: 'acme/langchars',
    message: /Invalid characters in pygments language/,
  },
  {
    rule: 'playground language too long',
    declare: (o) =>
      new CodePlayground(o, 'langlong', {
        name: 'n4',
        pygmentsLanguage: 'p'.repeat(41),
        urlTemplate: 'https://x/{code}',
      }),
    path: 'acme/langlong',
    message: /pygments_language is too long \(limit: 40 characters\)/,
  },
  // Snippets.
  {
    rule: 'snippet title too long',
    declare: (o) => new SavedSnippet(o, 'longtitle', { title: 't'.repeat(61), content: 'c' }),
    path: 'acme/longtitle',
    message: /title is too long \(limit: 60 characters\)/,
  },
  {
    rule: 'snippet content too long',
    declare: (o) => new SavedSnippet(o, 'longcontent', { title: 'lc', content: 'c'.repeat(10001) }),
    path: 'acme/longcontent',
    message: /content is too long \(limit: 10000 characters\)/,
  },
  {
    rule: 'snippet content blank',
    declare: (o) => new SavedSnippet(o, 'blank', { title: 'bl', content: '  ' }),
    path: 'acme/blank',
    message: /content cannot be blank/,
  },
  {
    rule: 'snippet content with a final newline',
    declare: (o) => new SavedSnippet(o, 'newline', { title: 'nl', content: 'hello\n' }),
    path: 'acme/newline',
    message: /trailing whitespace \(a final newline, say\)/,
  },
  // Users and subscription settings.
  {
    rule: 'user full name too long',
    declare: (o) => new User(o, 'longname', { email: 'long@x.io', fullName: 'n'.repeat(101) }),
    path: 'acme/longname',
    message: /fullName is 101 characters long/,
  },
  {
    rule: 'user role not a role',
    declare: (o) => new User(o, 'badrole', { email: 'r@x.io', role: 'admin' } as never),
    path: 'acme/badrole',
    message: /property 'role'/,
  },
  {
    rule: 'subscription colour not hex',
    declare: (o) => {
      const c = ch(o, 'colored');
      new SubscriptionSettings(o, 'badcolor', { channel: c, color: 'red' });
    },
    path: 'acme/badcolor',
    message: /color 'red' is not a hex colour/,
  },
  // Rules that had no case of their own.
  {
    rule: 'folder name with a control character',
    declare: (o) => new ChannelFolder(o, 'folderctl', { name: 'abc\u0000' }),
    path: 'acme/folderctl',
    message: /Invalid character in channel folder name, at position 4\./,
  },
  {
    rule: 'folder name surrounding whitespace',
    declare: (o) => new ChannelFolder(o, 'folderspace', { name: 'Ops ' }),
    path: 'acme/folderspace',
    message: /name 'Ops ' has leading or trailing whitespace, which Zulip strips/,
  },
  {
    rule: 'a folder that is not a ChannelFolder construct',
    declare: (o) => ch(o, 'foldername', { folder: 'Engineering' as never }),
    path: 'acme/foldername',
    message: /property 'folder': expected a ChannelFolder construct/,
  },
  {
    rule: 'role:internet as subscribers',
    declare: (o) => ch(o, 'internetsubs', { subscribers: { groups: [SystemGroup.INTERNET] } }),
    path: 'acme/internetsubs',
    message: /subscribers lists role:internet, which has no members/,
  },
  {
    rule: 'role:internet as a subgroup',
    declare: (o) =>
      new UserGroup(o, 'internetsub', { name: 'internetsub', subgroups: [SystemGroup.INTERNET] }),
    path: 'acme/internetsub',
    message: /subgroups lists role:internet, which has no members/,
  },
  {
    rule: 'a deactivated group as a subgroup',
    declare: (o) => {
      const gone = new UserGroup(o, 'gonegroup', { name: 'gonegroup', deactivated: true });
      new UserGroup(o, 'withgone', { name: 'withgone', subgroups: [gone] });
    },
    path: 'acme/withgone',
    message: /subgroups refers to user group 'gonegroup' .* which is declared deactivated/,
  },
  {
    rule: 'a group name added with addSubgroups',
    declare: (o) =>
      new UserGroup(o, 'addsubname', { name: 'addsubname' }).addSubgroups('admins' as never),
    path: 'acme/addsubname',
    message: /subgroups lists "admins": expected a UserGroup construct or a SystemGroup/,
  },
  {
    rule: 'a bad e-mail added with addMembers',
    declare: (o) => new UserGroup(o, 'addmember', { name: 'addmember' }).addMembers('carol'),
    path: 'acme/addmember',
    message: /members lists "carol", which is not an e-mail address/,
  },
  {
    rule: 'a group by name inside Permission.anyOf',
    declare: (o) =>
      ch(o, 'anyofname', {
        canSendMessageGroup: Permission.anyOf({ groups: ['admins'] } as never),
      }),
    path: 'acme/anyofname',
    message: /canSendMessageGroup: Permission.anyOf groups lists "admins": expected a UserGroup/,
  },
  {
    rule: 'Permission.anyOf users that are not a list',
    declare: (o) =>
      ch(o, 'anyofusers', {
        canSendMessageGroup: Permission.anyOf({ users: 'a@x.io' } as never),
      }),
    path: 'acme/anyofusers',
    message: /canSendMessageGroup: Permission.anyOf users must be an array of e-mail addresses/,
  },
  {
    rule: 'linkifier pattern empty',
    declare: (o) => new Linkifier(o, 'nopattern', { pattern: '', urlTemplate: 'https://x/' }),
    path: 'acme/nopattern',
    message: /pattern is empty \(Zulip: "This field cannot be blank\."\)/,
  },
  {
    rule: 'linkifier URL template empty (named as such)',
    declare: (o) => new Linkifier(o, 'notemplate', { pattern: 'T(?P<id>[0-9]+)', urlTemplate: '' }),
    path: 'acme/notemplate',
    message: /urlTemplate is empty \(Zulip: "This field cannot be blank\."\)/,
  },
  {
    rule: 'playground name empty',
    declare: (o) =>
      new CodePlayground(o, 'noname', {
        name: ' ',
        pygmentsLanguage: 'go',
        urlTemplate: 'https://x/{code}',
      }),
    path: 'acme/noname',
    message: /name is empty: give the playground a name/,
  },
  {
    rule: 'playground language empty',
    declare: (o) =>
      new CodePlayground(o, 'nolang', {
        name: 'n5',
        pygmentsLanguage: '',
        urlTemplate: 'https://x/{code}',
      }),
    path: 'acme/nolang',
    message: /pygmentsLanguage is empty/,
  },
  {
    rule: 'playground template not RFC 6570',
    declare: (o) =>
      new CodePlayground(o, 'badplaytpl', {
        name: 'n6',
        pygmentsLanguage: 'python',
        urlTemplate: 'https://x/?code={code',
      }),
    path: 'acme/badplaytpl',
    message: /urlTemplate 'https:\/\/x\/\?code=\{code': Invalid URL template\./,
  },
  {
    rule: 'playground surrounding whitespace',
    declare: (o) =>
      new CodePlayground(o, 'playspace', {
        name: 'n7',
        pygmentsLanguage: 'python',
        urlTemplate: 'https://x/{code} ',
      }),
    path: 'acme/playspace',
    message: /urlTemplate 'https:\/\/x\/\{code\} ' has leading or trailing whitespace/,
  },
  {
    rule: 'snippet title blank',
    declare: (o) => new SavedSnippet(o, 'notitle', { title: ' ', content: 'c' }),
    path: 'acme/notitle',
    message: /title cannot be blank/,
  },
  {
    rule: 'snippet title surrounding whitespace',
    declare: (o) => new SavedSnippet(o, 'titlespace', { title: ' Hello', content: 'c' }),
    path: 'acme/titlespace',
    message: /title ' Hello' has leading or trailing whitespace/,
  },
  {
    rule: 'user e-mail not an e-mail address',
    declare: (o) => new User(o, 'bademailuser', { email: 'dave', role: 'member' }),
    path: 'acme/bademailuser',
    message: /property 'email': expected a user e-mail address/,
  },
  {
    rule: 'user full name empty',
    declare: (o) => new User(o, 'emptyname', { email: 'empty@x.io', fullName: '  ' }),
    path: 'acme/emptyname',
    message: /fullName is empty/,
  },
  {
    rule: 'user full name surrounding whitespace',
    declare: (o) => new User(o, 'namespace', { email: 'space@x.io', fullName: 'Ann ' }),
    path: 'acme/namespace',
    message: /fullName 'Ann ' has leading or trailing whitespace/,
  },
  {
    rule: 'user full name with a control character',
    declare: (o) => new User(o, 'namectl', { email: 'ctl@x.io', fullName: 'An\u0007n' }),
    path: 'acme/namectl',
    message: /fullName has an invalid character at position 3/,
  },
  {
    rule: "user full name with a character Zulip's mention syntax uses",
    declare: (o) => new User(o, 'nameat', { email: 'at@x.io', fullName: 'Ann @ Acme' }),
    path: 'acme/nameat',
    message:
      /fullName 'Ann @ Acme' contains "@": Zulip refuses it \("Invalid characters in name!"\)/,
  },
  {
    rule: "user full name ending in '|' and digits",
    declare: (o) => new User(o, 'namepipe', { email: 'pipe@x.io', fullName: 'iago|72' }),
    path: 'acme/namepipe',
    message: /fullName 'iago\|72' ends in '\|' and digits: Zulip refuses it \("Invalid format!"\)/,
  },
  {
    rule: 'subscription settings of something that is not a Channel construct',
    declare: (o) =>
      new SubscriptionSettings(o, 'notchannel', { channel: 'general' as never, isMuted: true }),
    path: 'acme/notchannel',
    message: /property 'channel': expected a Channel construct/,
  },
  {
    rule: 'renamedFrom on a user (e-mail addresses are not changed)',
    declare: (o) =>
      new User(o, 'renameduser', {
        email: 'new@x.io',
        role: 'member',
        renamedFrom: 'old@x.io',
      } as never),
    path: 'acme/renameduser',
    message: /renamedFrom is not supported for users/,
  },
  {
    rule: 'renamedFrom on subscription settings (they follow their channel)',
    declare: (o) => {
      const c = ch(o, 'renamedsettingschannel');
      new SubscriptionSettings(o, 'renamedsettings', {
        channel: c,
        isMuted: true,
        renamedFrom: 'old',
      } as never);
    },
    path: 'acme/renamedsettings',
    message: /renamedFrom is not supported for subscription settings/,
  },
  // Duplicate natural keys.
  {
    rule: 'duplicate channel names, case-insensitively',
    declare: (o) => {
      ch(o, 'dup1', { name: 'Random' });
      ch(o, 'dup2', { name: 'random' });
    },
    path: 'acme/dup2',
    message:
      /channel name 'random' is already declared by acme\/dup1 \(channel names are compared case-insensitively\)/,
  },
  {
    rule: 'duplicate folder names, case-insensitively',
    declare: (o) => {
      new ChannelFolder(o, 'fdup1', { name: 'Frontend' });
      new ChannelFolder(o, 'fdup2', { name: 'frontEND' });
    },
    path: 'acme/fdup2',
    message: /channel folder name 'frontEND' is already declared by acme\/fdup1/,
  },
  {
    rule: 'duplicate group names (case-sensitive)',
    declare: (o) => {
      new UserGroup(o, 'gdup1', { name: 'ops' });
      new UserGroup(o, 'gdup2', { name: 'ops' });
      new UserGroup(o, 'gcase', { name: 'OPS' });
    },
    path: 'acme/gdup2',
    message: /user group name 'ops' is already declared by acme\/gdup1/,
  },
  {
    rule: 'duplicate linkifier patterns',
    declare: (o) => {
      new Linkifier(o, 'ldup1', { pattern: 'L(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' });
      new Linkifier(o, 'ldup2', { pattern: 'L(?P<id>[0-9]+)', urlTemplate: 'https://b/{id}' });
    },
    path: 'acme/ldup2',
    message: /linkifier pattern 'L\(\?P<id>\[0-9\]\+\)' is already declared by acme\/ldup1/,
  },
  {
    rule: 'linkifier patterns that differ only in the spaces Zulip strips (as the plan compares them)',
    declare: (o) => {
      new Linkifier(o, 'lsp1', { pattern: 'S(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' });
      new Linkifier(o, 'lsp2', { pattern: 'S(?P<id>[0-9]+) ', urlTemplate: 'https://b/{id}' });
    },
    path: 'acme/lsp2',
    message: /linkifier pattern 'S\(\?P<id>\[0-9\]\+\) ' is already declared by acme\/lsp1/,
  },
  {
    rule: 'duplicate playgrounds (language, name)',
    declare: (o) => {
      new CodePlayground(o, 'pdup1', {
        name: 'Tutor',
        pygmentsLanguage: 'ruby',
        urlTemplate: 'https://a/{code}',
      });
      new CodePlayground(o, 'pdup2', {
        name: 'Tutor',
        pygmentsLanguage: 'ruby',
        urlTemplate: 'https://b/{code}',
      });
      new CodePlayground(o, 'pother', {
        name: 'Tutor',
        pygmentsLanguage: 'go',
        urlTemplate: 'https://b/{code}',
      });
    },
    path: 'acme/pdup2',
    message: /code playground 'Tutor' for language 'ruby' is already declared by acme\/pdup1/,
  },
  {
    rule: 'duplicate snippet titles',
    declare: (o) => {
      new SavedSnippet(o, 'sdup1', { title: 'Hi', content: 'a' });
      new SavedSnippet(o, 'sdup2', { title: 'Hi', content: 'b' });
    },
    path: 'acme/sdup2',
    message: /saved snippet title 'Hi' is already declared by acme\/sdup1/,
  },
  {
    rule: 'duplicate users, case-insensitively',
    declare: (o) => {
      new User(o, 'udup1', { email: 'Ann@x.io', role: 'member' });
      new User(o, 'udup2', { email: 'ann@x.io', role: 'moderator' });
    },
    path: 'acme/udup2',
    message: /user 'ann@x.io' is already declared by acme\/udup1/,
  },
  {
    rule: 'two subscription settings for one channel',
    declare: (o) => {
      const c = ch(o, 'twice');
      new SubscriptionSettings(o, 'ssdup1', { channel: c, isMuted: true });
      new SubscriptionSettings(o, 'ssdup2', { channel: c, pinToTop: true });
    },
    path: 'acme/ssdup2',
    message: /subscription settings for channel 'twice' is already declared by acme\/ssdup1/,
  },
  // Renames.
  {
    rule: 'renamedFrom a name that is still declared',
    declare: (o) => {
      ch(o, 'old-name');
      ch(o, 'new-name', { renamedFrom: 'Old-Name' });
    },
    path: 'acme/new-name',
    message: /renamedFrom 'Old-Name' is the name of acme\/old-name, which is still declared/,
  },
  {
    rule: 'two renames from one name',
    declare: (o) => {
      new UserGroup(o, 'ren1', { name: 'ren1', renamedFrom: ['legacy'] });
      new UserGroup(o, 'ren2', { name: 'ren2', renamedFrom: ['legacy'] });
    },
    path: 'acme/ren2',
    message: /renamedFrom 'legacy' is also claimed by acme\/ren1/,
  },
  {
    rule: 'renamedFrom its own name',
    declare: (o) =>
      new SavedSnippet(o, 'selfren', { title: 'Self', content: 'x', renamedFrom: 'Self' }),
    path: 'acme/selfren',
    message: /renamedFrom 'Self' is the declared name itself/,
  },
];

// Default channel groups (zerver/actions/default_streams.py).
const dcg = (o: Organization, id: string, props: Partial<DefaultChannelGroupProps>) =>
  new DefaultChannelGroup(o, id, { name: id, channels: [], ...props });
CASES.push(
  {
    rule: 'default channel group: blank name',
    declare: (o) => dcg(o, 'dcg-blank', { name: '  ' }),
    path: 'acme/dcg-blank',
    message: /name: Invalid default channel group name ' {2}'/,
  },
  {
    rule: 'default channel group: name over 60 characters',
    declare: (o) => dcg(o, 'dcg-long', { name: 'x'.repeat(61) }),
    path: 'acme/dcg-long',
    message: /Default channel group name too long \(limit: 60 characters\)/,
  },
  {
    rule: 'default channel group: NULL character',
    declare: (o) => dcg(o, 'dcg-nul', { name: 'a\0b' }),
    path: 'acme/dcg-nul',
    message: /contains NULL \(0x00\) characters/,
  },
  {
    rule: 'default channel group: description over 1024 characters',
    declare: (o) => dcg(o, 'dcg-desc', { description: 'd'.repeat(1025) }),
    path: 'acme/dcg-desc',
    message: /description is 1025 characters long; Zulip allows at most 1024/,
  },
  {
    rule: 'default channel group: same name twice',
    declare: (o) => {
      dcg(o, 'dcg-one', { name: 'Same' });
      dcg(o, 'dcg-two', { name: 'Same' });
    },
    path: 'acme/dcg-two',
    message: /default channel group name 'Same' is already declared by acme\/dcg-one/,
  },
  {
    rule: 'default channel group: a default channel',
    declare: (o) => dcg(o, 'dcg-default', { channels: [ch(o, 'lobby', { defaultChannel: true })] }),
    path: 'acme/dcg-default',
    message: /channels\[0\] 'lobby': the channel is a default channel .*set defaultChannel: false/,
  },
  {
    rule: 'default channel group: an archived channel',
    declare: (o) => dcg(o, 'dcg-archived', { channels: [ch(o, 'attic', { archived: true })] }),
    path: 'acme/dcg-archived',
    message: /channels\[0\] 'attic': the channel is declared archived/,
  },
  {
    rule: 'default channel group: a channel listed twice',
    declare: (o) => dcg(o, 'dcg-twice', { channels: [ch(o, 'dup'), 'DUP'] }),
    path: 'acme/dcg-twice',
    message: /channels\[1\] 'DUP' is listed twice/,
  },
  {
    rule: 'default channel group: a channel of another organization',
    declare: (o, other) => dcg(o, 'dcg-foreign', { channels: [ch(other, 'elsewhere')] }),
    path: 'acme/dcg-foreign',
    message: /channels\[0\] 'elsewhere': channel other\/elsewhere belongs to organization 'other'/,
  },
);

// Custom profile fields (zerver/views/custom_profile_fields.py) and users' values
// (zerver/lib/users.py validate_user_custom_profile_field).
const cpf = (o: Organization, id: string, props: Partial<CustomProfileFieldProps>) =>
  new CustomProfileField(o, id, { name: id, type: 'short-text', ...props });
CASES.push(
  {
    rule: 'custom profile field: blank label',
    declare: (o) => cpf(o, 'cpf-blank', { name: ' ' }),
    path: 'acme/cpf-blank',
    message: /name is empty \(Zulip: "Label cannot be blank."\)/,
  },
  {
    rule: 'custom profile field: label over 40 characters',
    declare: (o) => cpf(o, 'cpf-long', { name: 'x'.repeat(41) }),
    path: 'acme/cpf-long',
    message: /name is 41 characters long; Zulip allows at most 40/,
  },
  {
    rule: 'custom profile field: hint over 80 characters',
    declare: (o) => cpf(o, 'cpf-hint', { hint: 'h'.repeat(81) }),
    path: 'acme/cpf-hint',
    message: /hint is 81 characters long; Zulip allows at most 80/,
  },
  {
    rule: 'custom profile field: same label twice',
    declare: (o) => {
      cpf(o, 'cpf-one', { name: 'Team' });
      cpf(o, 'cpf-two', { name: 'Team' });
    },
    path: 'acme/cpf-two',
    message: /custom profile field 'Team' is already declared by acme\/cpf-one/,
  },
  {
    rule: 'custom profile field: a choice field without choices',
    declare: (o) => cpf(o, 'cpf-nochoice', { type: 'choice' }),
    path: 'acme/cpf-nochoice',
    message: /Field must have at least one choice/,
  },
  {
    rule: 'custom profile field: a choice twice',
    declare: (o) => cpf(o, 'cpf-dup', { type: 'choice', choices: ['A', 'A'] }),
    path: 'acme/cpf-dup',
    message: /Field must not have duplicate choices/,
  },
  {
    rule: 'custom profile field: a long text field in the summary',
    declare: (o) => cpf(o, 'cpf-sum', { type: 'long-text', displayInProfileSummary: true }),
    path: 'acme/cpf-sum',
    message: /Field type not supported for display in profile summary/,
  },
  {
    rule: 'custom profile field: a third field in the summary',
    declare: (o) => {
      cpf(o, 's1', { displayInProfileSummary: true });
      cpf(o, 's2', { displayInProfileSummary: true });
      cpf(o, 's3', { displayInProfileSummary: true });
    },
    path: 'acme/s3',
    message: /acme\/s1 and acme\/s2 are already in the profile summary; Zulip allows at most 2/,
  },
  {
    rule: 'custom profile field: a custom account without a URL pattern',
    declare: (o) =>
      cpf(o, 'cpf-acct', { type: 'external-account', externalAccount: { subtype: 'custom' } }),
    path: 'acme/cpf-acct',
    message: /Custom external account must define URL pattern/,
  },
  {
    rule: 'custom profile field: a URL pattern without %(username)s',
    declare: (o) =>
      cpf(o, 'cpf-url', {
        type: 'external-account',
        externalAccount: { subtype: 'custom', urlPattern: 'https://example.com/' },
      }),
    path: 'acme/cpf-url',
    message: /URL pattern must contain '%\(username\)s'/,
  },
  {
    rule: "custom profile field: a GitHub field under another name than Zulip's",
    declare: (o) =>
      cpf(o, 'cpf-gh', {
        name: 'GitHub',
        type: 'external-account',
        externalAccount: { subtype: 'github' },
      }),
    path: 'acme/cpf-gh',
    message: /Zulip names a github account field 'GitHub username' itself/,
  },
  {
    rule: 'user profile: a field that is not declared',
    declare: (o) => new User(o, 'cpf-user1', { email: 'a@example.com', profile: { Nope: 'x' } }),
    path: 'acme/cpf-user1',
    message: /profile\['Nope'\]: no custom profile field 'Nope' is declared/,
  },
  {
    rule: 'user profile: not one of the choices',
    declare: (o) => {
      cpf(o, 'Team', { type: 'choice', choices: ['Eng', 'Sales'] });
      new User(o, 'cpf-user2', { email: 'a@example.com', profile: { Team: 'Ops' } });
    },
    path: 'acme/cpf-user2',
    message: /'Ops' is not a valid choice for 'Team'.*use one of 'Eng', 'Sales'/,
  },
  {
    rule: 'user profile: not a date',
    declare: (o) => {
      cpf(o, 'Birthday', { type: 'date' });
      new User(o, 'cpf-user3', { email: 'a@example.com', profile: { Birthday: '1990-02-30' } });
    },
    path: 'acme/cpf-user3',
    message: /Birthday is not a date.*YYYY-MM-DD/,
  },
  {
    rule: 'user profile: text for a user field',
    declare: (o) => {
      cpf(o, 'Manager', { type: 'user' });
      new User(o, 'cpf-user4', { email: 'a@example.com', profile: { Manager: 'b@example.com' } });
    },
    path: 'acme/cpf-user4',
    message: /profile\['Manager'\] is a user field: give a list of people/,
  },
  {
    rule: 'user profile: short text over 50 characters',
    declare: (o) => {
      cpf(o, 'Phone', {});
      new User(o, 'cpf-user5', { email: 'a@example.com', profile: { Phone: 'p'.repeat(51) } });
    },
    path: 'acme/cpf-user5',
    message: /Phone is too long \(limit: 50 characters\)/,
  },
);

// Allowed domains: zerver/lib/domains.py validate_domain on the domain as Zulip stores it.
CASES.push(
  {
    rule: 'allowed domain without a dot',
    declare: (o) => new AllowedDomain(o, 'nodot', { domain: 'localhost' }),
    path: 'acme/nodot',
    message:
      /(?:^|: )domain 'localhost': Zulip refuses it \("Invalid domain: Domain must have at least one dot \(\.\)"\): write an e-mail domain such as example\.com \(labels of letters, digits and '-', not at either end, separated by dots\)$/,
  },
  {
    rule: 'allowed domain with an underscore',
    declare: (o) => new AllowedDomain(o, 'underscore', { domain: 'test_domain.com' }),
    path: 'acme/underscore',
    message: /Invalid domain: Domain can only have letters, numbers, '\.' and '-'s\./,
  },
  {
    rule: 'allowed domain label ending in a dash',
    declare: (o) => new AllowedDomain(o, 'dash', { domain: 'acme-.example' }),
    path: 'acme/dash',
    message: /Invalid domain: Subdomains cannot start or end with a '-'\./,
  },
  {
    rule: 'allowed domain longer than Zulip stores',
    declare: (o) => new AllowedDomain(o, 'longdomain', { domain: `${'a'.repeat(77)}.com` }),
    path: 'acme/longdomain',
    message:
      /has 81 characters; Zulip stores at most 80 \(a longer one fails with a server error\)/,
  },
  {
    rule: 'allowed domain declared twice, as Zulip compares them',
    declare: (o) => {
      new AllowedDomain(o, 'dup-1', { domain: 'Dup.example' });
      new AllowedDomain(o, 'dup-2', { domain: ' dup.EXAMPLE', allowSubdomains: true });
    },
    path: 'acme/dup-2',
    message:
      /allowed domain 'dup\.example' is already declared by acme\/dup-1 \(domains are compared as Zulip stores them: stripped and lower-cased\)/,
  },
  {
    rule: 'allowed domain renamedFrom',
    declare: (o) =>
      new AllowedDomain(o, 'renamed-domain', {
        domain: 'new.example',
        renamedFrom: 'old.example',
      } as never),
    path: 'acme/renamed-domain',
    message: /renamedFrom is not supported for allowed domains: Zulip cannot rename a domain/,
  },
);

const RULES = CASES;

function build(declare: Case['declare']): { app: App; org: Organization } {
  const app = Testing.app();
  const org = new Organization(app, 'acme');
  const other = new Organization(app, 'other');
  declare(org, other);
  return { app, org };
}

describe('validation rules', () => {
  test.each(RULES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => {
    const { org } = build(c.declare);
    const problems = Testing.validate(org);
    expect(problems).toContainEqual({ path: c.path, message: expect.stringMatching(c.message) });
    const err = thrownError(() => Testing.synth(org), 'VALIDATION_FAILED');
    // The path, then the file and line that created the construct (a helper of this file).
    expect(err.message).toMatch(
      new RegExp(`^${c.path} \\(test/constructs/validation\\.test\\.ts:\\d+:\\d+\\): `, 'm'),
    );
  });

  test('valid constructs add no problem (no false positives in this table)', () => {
    const { org } = build((o) => {
      ch(o, 'fine', {
        private: true,
        historyPublicToSubscribers: false,
        canCreateTopicGroup: SystemGroup.EVERYONE,
        canSubscribeGroup: SystemGroup.MEMBERS,
      });
      new UserGroup(o, 'case1', { name: 'ops' });
      new UserGroup(o, 'case2', { name: 'OPS' });
      new Linkifier(o, 'ok', { pattern: '(?P<a>x)(?P<b>y)', urlTemplate: 'https://x/{a}{?b}' });
      // Zulip strips and lower-cases a domain; a line break inside one passes validate_domain.
      new AllowedDomain(o, 'domain-case', { domain: ' Mixed.Example ', allowSubdomains: true });
      new AllowedDomain(o, 'domain-80', { domain: `${'a'.repeat(76)}.com` });
      // A diamond is not a cycle.
      const leaf = new UserGroup(o, 'leaf', { name: 'leaf' });
      const left = new UserGroup(o, 'left', { name: 'left', subgroups: [leaf] });
      const right = new UserGroup(o, 'right', { name: 'right', subgroups: [leaf] });
      new UserGroup(o, 'top', { name: 'top', subgroups: [left, right, SystemGroup.MODERATORS] });
    });
    expect(Testing.validate(org)).toEqual([]);
  });

  test('the duplicate checks see constructs added after a first validation', () => {
    // Organization._memo keeps per-kind indexes between validations until a resource is added.
    const app = Testing.app();
    const o = new Organization(app, 'acme');
    new Channel(o, 'first', { name: 'General' });
    new CustomProfileField(o, 'team', { name: 'Team', type: 'short-text' });
    new User(o, 'alice', { email: 'alice@example.com', profile: { Team: 'Ops' } });
    expect(Testing.validate(app)).toEqual([]);
    new Channel(o, 'second', { name: 'general' });
    new CustomProfileField(o, 'desk', { name: 'Desk', type: 'short-text' });
    new User(o, 'bob', { email: 'bob@example.com', profile: { Desk: 'A' } });
    expect(Testing.validate(app)).toEqual([
      {
        path: 'acme/second',
        message: expect.stringMatching(/channel name 'general' is already declared by acme\/first/),
      },
    ]);
  });

  test('organization props are strict, and its id names a file', () => {
    const app = Testing.app();
    new Organization(app, 'bad id', { prune: { channels: true } } as never);
    const problems = Testing.validate(app);
    expect(problems).toEqual([
      { path: 'bad id', message: expect.stringMatching(/unknown property 'prune.channels'/) },
      {
        path: 'bad id',
        message: expect.stringMatching(/organization id 'bad id' names the output file/),
      },
    ]);
  });

  test('one error lists every problem of the whole app, each line starting with its path', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'zulip-cdk-validation-'));
    try {
      const app = new App({ outdir });
      const acme = new Organization(app, 'acme');
      const other = new Organization(app, 'other');
      for (const c of RULES) c.declare(acme, other);
      const err = thrownError(() => app.synth(), 'VALIDATION_FAILED');
      expect(err).toBeInstanceOf(ValidationError);
      const e = err as ValidationError;
      const lines = e.message.split('\n');
      expect(lines[0]).toBe(`the configuration has ${e.problems.length} problems:`);
      expect(lines.slice(1)).toHaveLength(e.problems.length);
      const missing = RULES.filter(
        (c) => !lines.some((l) => l.startsWith(`${c.path} (`) && c.message.test(l)),
      ).map((c) => c.rule);
      expect(missing).toEqual([]);
      for (const line of lines.slice(1))
        expect(line).toMatch(
          /^(acme|other)\/\S+ \(test\/constructs\/validation\.test\.ts:\d+:\d+\): \S/,
        );
      // Nothing was written.
      expect(readdirSync(outdir)).toEqual([]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('two organizations with the same id in one app', () => {
    const app = Testing.app();
    const { Construct } = jest.requireActual<typeof import('constructs')>('constructs');
    new Organization(new Construct(app, 'staging'), 'acme');
    new Organization(new Construct(app, 'production'), 'acme');
    expect(() => app.synth()).toThrow(
      /production\/acme: organization id 'acme' is also used by staging\/acme/,
    );
  });
});

describe('synth makes no request', () => {
  test('validation and synth touch no network', () => {
    const spies = [
      jest.spyOn(http, 'request'),
      jest.spyOn(https, 'request'),
      jest.spyOn(net, 'connect'),
      jest.spyOn(net.Socket.prototype, 'connect'),
      jest.spyOn(globalThis, 'fetch'),
    ];
    const outdir = mkdtempSync(join(tmpdir(), 'zulip-cdk-norequest-'));
    try {
      const app = new App({ outdir });
      const good = new Organization(app, 'good');
      const g = new UserGroup(good, 'g', { name: 'g', members: ['a@x.io'] });
      new Channel(good, 'c', { name: 'c', subscribers: { groups: [g] } });
      app.synth();
      const bad = Testing.organization('bad');
      ch(bad, 'x', { private: true, defaultChannel: true });
      expect(() => Testing.synth(bad)).toThrow(ValidationError);
      for (const s of spies) expect(s).not.toHaveBeenCalled();
    } finally {
      for (const s of spies) s.mockRestore();
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
