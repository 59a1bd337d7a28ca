import type { Construct } from 'constructs';
import { z } from 'zod';
import { channelNameKey } from '../model/address';
import { DefaultChannelGroupSchema } from '../model/desired-state';
import type { DesiredDefaultChannelGroup } from '../model/desired-state';
import type { DefaultChannelGroupProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import { checkDefaultChannelGroupName } from '../model/rules';
import type { Channel } from './channel';
import { lengthProblem } from './checks';
import { definedProps, propsSchema, resourceRefSchema } from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';
import { compareStrings } from '../synth/stable-json';

/** Props of a {@link DefaultChannelGroup}. */
export interface DefaultChannelGroupProps extends ResourceOptions<DefaultChannelGroupProperty> {
  /** The group's name, unique in the organization (at most 60 characters). */
  readonly name: string;
  /**
   * What the group is for, shown to people signing up (at most 1024 characters). Zulip cannot
   * clear a description once set: declare a new one instead.
   * @default ''
   */
  readonly description?: string;
  /**
   * Its channels: `Channel` constructs of the same organization, or names of channels the
   * configuration does not declare. Not default channels (Zulip refuses them), not archived
   * ones. The set is exact: channels of the live group that are not listed are removed.
   */
  readonly channels: ReadonlyArray<Channel | string>;
}

const PropsSchema = propsSchema('defaultChannelGroup', DefaultChannelGroupSchema, {
  channels: z.array(
    z.union([
      z.string().min(1),
      resourceRefSchema<Channel>('channel', 'expected a Channel construct or a channel name'),
    ]),
  ),
});

/**
 * A default channel group: a named set of channels that people signing up to the organization
 * can choose to join as one (Zulip's "default channel groups", `/default_stream_groups`).
 * Identified by its name; `renamedFrom` takes earlier names.
 *
 * @example
 * const backend = new Channel(org, 'backend', { name: 'backend' });
 * new DefaultChannelGroup(org, 'engineering-channels', {
 *   name: 'Engineering',
 *   description: 'Channels for engineers',
 *   channels: [backend, 'frontend'],
 * });
 */
export class DefaultChannelGroup extends KeyedResource<DefaultChannelGroupProps> {
  /** True when `x` is a {@link DefaultChannelGroup}. */
  public static readonly isDefaultChannelGroup =
    resourceGuard<DefaultChannelGroup>('defaultChannelGroup');

  /** The group's name, its natural key. */
  public readonly groupName: string = this.props?.name;

  public constructor(scope: Construct, id: string, props: DefaultChannelGroupProps) {
    super(scope, id, 'defaultChannelGroup', 'DefaultChannelGroup', PropsSchema, props, 'name');
  }

  protected validateResource(): string[] {
    const p = this.props;
    const problems: string[] = [];
    const nameError = checkDefaultChannelGroupName(p.name);
    if (nameError) problems.push(`name: ${nameError}. Fix the group's name.`);
    problems.push(
      ...lengthProblem('description', p.description, LIMITS.defaultChannelGroupDescription),
    );
    const seen = new Set<string>();
    for (const [i, c] of p.channels.entries()) {
      const name = typeof c === 'string' ? c : c.channelName;
      const where = `channels[${i}] '${name}'`;
      if (typeof c !== 'string') {
        const foreign = this.foreignReference(c, 'channel');
        if (foreign) {
          problems.push(`${where}: ${foreign}`);
          continue;
        }
        const d = c._propsValid ? c._toDesired() : undefined;
        if (d?.archived === true)
          problems.push(
            `${where}: the channel is declared archived, and Zulip adds only active channels to a default channel group: remove it from channels, or unarchive it`,
          );
        if (d?.defaultChannel === true)
          problems.push(
            `${where}: the channel is a default channel (defaultChannel: true), and Zulip refuses a default channel in a default channel group ("'${name}' is a default channel and cannot be added to '${p.name}'"): remove it from channels, or set defaultChannel: false`,
          );
      }
      const key = channelNameKey(name);
      if (seen.has(key))
        problems.push(
          `${where} is listed twice (channel names are compared case-insensitively): list each channel once`,
        );
      seen.add(key);
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredDefaultChannelGroup {
    const p = this.props;
    const names = p.channels.map((c) => (typeof c === 'string' ? c : c.channelName));
    return {
      ...this.desiredBase(),
      name: p.name,
      ...definedProps(p, ['description']),
      channels: [...new Set(names)].sort((a, b) =>
        compareStrings(channelNameKey(a), channelNameKey(b)),
      ),
    };
  }
}
