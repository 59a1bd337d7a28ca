import type { Construct } from 'constructs';
import { z } from 'zod';
import type { DesiredChannelFolder } from '../model/desired-state';
import type { ChannelFolderProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import { checkChannelFolderName, codePointLength } from '../model/rules';
import { lifecycleShape } from './props';
import { ZulipResource } from './resource';
import type { ResourceOptions } from './resource';
import { CHANNEL, CHANNEL_FOLDER, brand, hasBrand } from './symbols';
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

const PropsSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  archived: z.boolean().optional(),
  ...lifecycleShape('channelFolder'),
});

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
export class ChannelFolder extends ZulipResource {
  /** True when `x` is a {@link ChannelFolder}. */
  public static isChannelFolder(x: unknown): x is ChannelFolder {
    return hasBrand(x, CHANNEL_FOLDER);
  }

  /** The folder's name. */
  public readonly folderName: string;
  private readonly props: ChannelFolderProps;

  public constructor(scope: Construct, id: string, props: ChannelFolderProps) {
    super(scope, id, 'channelFolder', 'ChannelFolder', PropsSchema, props);
    brand(this, CHANNEL_FOLDER);
    this.props = props;
    this.folderName = props?.name;
  }

  public get naturalKey(): string {
    return this.folderName;
  }

  /** Whether the folder is declared archived. */
  public get archived(): boolean {
    return this.props.archived === true;
  }

  protected describeKey(): string {
    return `channel folder name '${this.folderName}'`;
  }

  protected override keyNote(): string {
    return ' (folder names are compared case-insensitively)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props;
    const nameError = checkChannelFolderName(p.name);
    if (nameError) problems.push(`name '${p.name}': ${nameError} Fix the folder name.`);
    else if (p.name !== p.name.trim()) {
      problems.push(
        `name '${p.name}' has leading or trailing whitespace, which Zulip strips: remove it`,
      );
    }
    if (
      p.description !== undefined &&
      codePointLength(p.description) > LIMITS.channelFolderDescription
    ) {
      problems.push(
        `description is ${codePointLength(p.description)} characters long; Zulip allows at most ${LIMITS.channelFolderDescription}: shorten it`,
      );
    }
    if (p.archived) {
      const inside = this.organization
        ._resources()
        .filter((r): r is Channel => hasBrand(r, CHANNEL) && (r as Channel).folder === this);
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

  /** @internal */
  public _toDesired(): DesiredChannelFolder {
    const p = this.props;
    return {
      ...this.desiredBase(),
      name: p.name,
      ...(p.description !== undefined && { description: p.description }),
      ...(p.archived !== undefined && { archived: p.archived }),
    };
  }
}
