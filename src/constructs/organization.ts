import { Construct } from 'constructs';
import type { IConstruct } from 'constructs';
import { z } from 'zod';
import { GuardsSchema } from '../model/desired-state';
import type { Guards, Prune } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { PRUNABLE_KINDS } from '../model/kinds';
import type { KindPruneOptions } from '../model/kinds';
import { registerCdktfSynthesis } from './cdktf';
import { checkProps } from './props';
import type { ZulipResource } from './resource';
import { recordCreationSite } from './source-location';
import { ORGANIZATION, RESOURCE, brand, brandGuard, hasBrand } from './symbols';

/**
 * Per kind: whether live objects that the configuration does not declare are removed
 * (channels and folders archived, groups and custom emoji deactivated, the rest deleted). Off
 * for every kind by default: undeclared objects are reported by `plan`, never removed. Each
 * option is documented with its kind (`src/model/kinds/<kind>.ts`, `prune`).
 */
export type PruneOptions = KindPruneOptions;

/**
 * Guards on the blast radius of a plan. A plan that goes beyond one has a safety finding (with
 * the construct path of what it is about), and `apply` refuses it (exit 4): `--force` lets the
 * numeric guards through, `--allow-privileged` the privileged changes. `plan` and `apply` take
 * flags that override each for one run (`--max-members-removed`, `--max-members-removed-percent`,
 * `--min-owners`, `--min-administrators`, `--min-administrators-percent`, `--allow-privileged`).
 *
 * @example
 * const app = new App();
 * new Organization(app, 'acme', {
 *   guards: { maxMembersRemoved: 20, maxMembersRemovedPercent: 10, minOwners: 2 },
 * });
 * app.synth();
 */
export interface GuardProps {
  /**
   * The most members (users and subgroups) or subscribers a plan may remove from one group or
   * channel.
   * @default - no limit by count (the percentage still applies)
   */
  readonly maxMembersRemoved?: number;
  /**
   * The most a plan may remove from one group or channel, in percent of its members or
   * subscribers now; only for those with at least {@link GuardProps.minMembersForPercent}.
   * @default 25
   */
  readonly maxMembersRemovedPercent?: number;
  /**
   * Groups and channels with fewer members than this are not held to
   * {@link GuardProps.maxMembersRemovedPercent}.
   * @default 4
   */
  readonly minMembersForPercent?: number;
  /**
   * The fewest owners (active people, not bots) a plan may leave the organization with. A plan
   * that does not lower the number of owners is never flagged.
   * @default 1
   */
  readonly minOwners?: number;
  /**
   * The fewest administrators (owners included) a plan may leave.
   * @default 1
   */
  readonly minAdministrators?: number;
  /**
   * A plan may not leave fewer administrators (owners included) than this percentage of
   * today's.
   * @default 50
   */
  readonly minAdministratorsPercent?: number;
  /**
   * Let privileged changes through without `--allow-privileged`: a role of administrator or
   * owner, a group setting of administrator level (`canAdministerChannelGroup`,
   * `canManageGroup`, `canAddMembersGroup`) that lets more people through, or members added to
   * a group that holds one (organization administrators gaining it do not count).
   * @default false
   */
  readonly allowPrivileged?: boolean;
}

/** Options of an {@link Organization}. */
export interface OrganizationProps {
  /**
   * Remove undeclared live objects, per kind.
   * @default - nothing is pruned
   */
  readonly prune?: PruneOptions;
  /**
   * A plan removing more objects than this is flagged as unsafe and needs `--force`.
   * @default 10
   */
  readonly maxRemovals?: number;
  /**
   * Guards on the blast radius of a plan: members removed from one group or channel, owners
   * and administrators left, privileged changes.
   * @default - the defaults of each {@link GuardProps} field
   */
  readonly guards?: GuardProps;
}

const PropsSchema = z.strictObject({
  prune: z
    .strictObject(
      Object.fromEntries(PRUNABLE_KINDS.map((k) => [k, z.boolean().optional()])) as Record<
        (typeof PRUNABLE_KINDS)[number],
        z.ZodOptional<z.ZodBoolean>
      >,
    )
    .optional(),
  maxRemovals: z.number().int().nonnegative().optional(),
  guards: GuardsSchema.optional(),
});

/**
 * One Zulip organization (a realm). Every resource construct lives inside exactly one
 * organization; its id names the synthesized file (`<id>.zulip.json`). One app may hold
 * several organizations, for example staging and production.
 *
 * Inside a cdktf `TerraformStack`, the organization is synthesized by cdktf's own
 * `app.synth()` into the stack's output folder.
 *
 * @example
 * const app = new App();
 * const org = new Organization(app, 'acme', { prune: { linkifier: true } });
 * new Channel(org, 'general', { name: 'general', defaultChannel: true });
 * app.synth(); // writes zulip.out/acme.zulip.json
 */
export class Organization extends Construct {
  /** The organization that `c` belongs to; throws when there is none. */
  public static of(c: IConstruct): Organization {
    for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
      if (Organization.isOrganization(s)) return s;
    }
    throw new ZulipCdkError('NO_ORGANIZATION', `'${c.node.path}' is not inside an Organization`, {
      where: c.node.path,
    });
  }

  /** True when `x` is an {@link Organization}. */
  public static readonly isOrganization = brandGuard<Organization>(ORGANIZATION);

  /** The construct id: the name of the synthesized file. */
  public readonly orgId: string;
  /** Per kind, whether undeclared live objects are removed. */
  public readonly prune: Prune;
  /** The removal threshold, when set. */
  public readonly maxRemovals: number | undefined;
  /** The guards on the blast radius, as declared (unset fields take their defaults). */
  public readonly guards: Guards | undefined;
  private sequence = 0;
  private memos: { version: number; values: Map<string, unknown> } | undefined;

  public constructor(scope: Construct, id: string, props: OrganizationProps = {}) {
    super(scope, id);
    brand(this, ORGANIZATION);
    recordCreationSite(this, new.target);
    for (let s = scope as IConstruct | undefined; s; s = s.node.scope) {
      if (Organization.isOrganization(s)) {
        throw new ZulipCdkError(
          'NESTED_ORGANIZATION',
          `organization '${this.node.path}' is inside organization '${s.node.path}'`,
          { where: this.node.path, hint: 'create each Organization outside any other' },
        );
      }
    }
    this.orgId = id;
    const checked = checkProps(PropsSchema, props, 'Organization');
    this.prune = {};
    for (const k of PRUNABLE_KINDS) {
      const v = props.prune?.[k];
      if (v !== undefined) this.prune[k] = v;
    }
    this.maxRemovals = props.maxRemovals;
    this.guards = props.guards === undefined ? undefined : { ...props.guards };
    this.node.addValidation({
      validate: () => {
        const problems = checked.ok ? [] : [...checked.problems];
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) {
          problems.push(
            `organization id '${id}' names the output file: use letters, digits, '.', '_' and '-' only, starting with a letter or digit`,
          );
        }
        return problems;
      },
    });
    registerCdktfSynthesis(this);
  }

  /** @internal */
  public _nextSequence(): number {
    return ++this.sequence;
  }

  /** @internal Every resource of the organization, in declaration order. */
  public _resources(): ZulipResource[] {
    return this._memo('resources', () =>
      this.node
        .findAll()
        .filter((c): c is ZulipResource => hasBrand(c, RESOURCE))
        .sort((a, b) => a._sequence - b._sequence),
    );
  }

  /**
   * @internal What `make` computes from the organization's resources, computed once until a
   * resource is added. Validation reads indexes through it: each construct scanning every other
   * made synth quadratic (120,000 constructs took minutes).
   */
  public _memo<T>(name: string, make: () => T): T {
    if (this.memos?.version !== this.sequence)
      this.memos = { version: this.sequence, values: new Map() };
    const values = this.memos.values;
    if (!values.has(name)) values.set(name, make());
    return values.get(name) as T;
  }
}
