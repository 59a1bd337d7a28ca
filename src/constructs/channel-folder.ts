import type { Construct } from 'constructs';
import { ChannelFolderSchema } from '../model/desired-state';
import type { DesiredChannelFolder } from '../model/desired-state';
import type { ChannelFolderProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import { checkChannelFolderName } from '../model/rules';
import { lengthProblem, strippedNameProblems } from './checks';
import { PlainResource } from './resource';
import type { ResourceOptions } from './resource';
import { isResourceOf, resourceGuard } from './symbols';
import type { Channel } from './channel';

/** Props of a {@link ChannelFolder}. */
export interface ChannelFolderProps extends ResourceOptions<ChannelFolderProperty> {
  /** The folder's name (at most 60 characters, unique case-insensitively). */
  readonly name: string;
  /**
   * A Markdown description (at most 1024 characters).
   * @default '' (Zulip's default)
   */
  readonly description?: string;
  /**
   * Archive the folder. Zulip refuses to archive a folder that still holds channels.
   * @default false
   */
  readonly archived?: boolean;
}

/**
 * A channel folder (Zulip 11, feature level 389): groups channels in the left sidebar.
 * Folders are shown in declaration order within the organization.
 *
 * @example
 * const engineering = new ChannelFolder(org, 'engineering', {
 *   name: 'Engineering',
 *   description: 'Everything the engineering teams talk about',
 * });
 * new Channel(org, 'backend', { name: 'backend', folder: engineering });
 */
export class ChannelFolder extends PlainResource<ChannelFolderProps, DesiredChannelFolder> {
  /** True when `x` is a {@link ChannelFolder}. */
  public static readonly isChannelFolder = resourceGuard<ChannelFolder>('channelFolder');

  /** The folder's name. */
  public readonly folderName: string = this.props?.name;

  public constructor(scope: Construct, id: string, props: ChannelFolderProps) {
    super(scope, id, 'channelFolder', ChannelFolderSchema, props);
  }

  /** Whether the folder is declared archived. */
  public get archived(): boolean {
    return this.props.archived === true;
  }

  protected override keyNote(): string {
    return ' (folder names are compared case-insensitively)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props;
    problems.push(...strippedNameProblems(p.name, checkChannelFolderName(p.name), 'folder'));
    problems.push(...lengthProblem('description', p.description, LIMITS.channelFolderDescription));
    if (p.archived) {
      const inside = this.organization
        ._resources()
        .filter((r): r is Channel => isResourceOf(r, 'channel') && (r as Channel).folder === this);
      if (inside.length > 0) {
        problems.push(
          `an archived folder cannot hold channels, but ${inside
            .map((c) => c.node.path)
            .join(
              ', ',
            )} ${inside.length === 1 ? 'is' : 'are'} in it: move them out (or unset archived)`,
        );
      }
    }
    return problems;
  }
}
