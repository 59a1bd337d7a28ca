import { Construct } from 'constructs';
import { Channel, ChannelFolder, SystemGroup, UserGroup } from 'zulip-cdk';

/** Props of a {@link Team}. */
export interface TeamProps {
  /** The team's name: it names its group and its channel. */
  readonly name: string;
  readonly description: string;
  /**
   * The team lead (by e-mail), listed first among the group's members. Administrators manage
   * the group and administer the channel.
   */
  readonly lead: string;
  /** The other members, by e-mail. */
  readonly members: readonly string[];
  /** The folder of the team's channel. */
  readonly folder: ChannelFolder;
}

/**
 * A team in one line: its user group (the lead and the members, exactly), and its channel,
 * which the whole team is subscribed to. Compose it like any construct.
 */
export class Team extends Construct {
  public readonly group: UserGroup;
  public readonly channel: Channel;

  public constructor(scope: Construct, id: string, props: TeamProps) {
    super(scope, id);
    this.group = new UserGroup(this, 'group', {
      name: props.name,
      description: props.description,
      members: [props.lead, ...props.members],
      canManageGroup: SystemGroup.ADMINISTRATORS,
      canAddMembersGroup: SystemGroup.ADMINISTRATORS,
      canMentionGroup: SystemGroup.MEMBERS,
    });
    this.channel = new Channel(this, 'channel', {
      name: props.name,
      description: `${props.description}: the team's channel`,
      folder: props.folder,
      canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
      canResolveTopicsGroup: this.group,
      canMoveMessagesWithinChannelGroup: this.group,
      subscribers: { mode: 'atLeast', groups: [this.group] },
    });
  }
}
