import { Construct } from 'constructs';
import type { IConstruct } from 'constructs';
import type { Lifecycle } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { KIND_SPECS } from '../model/kinds';
import type { KeyedKind, KindSpec, ResourceKind } from '../model/kinds';
import { checkProps, definedProps, propsSchema } from './props';
import type { z } from 'zod';
import type { Organization } from './organization';
import { ORGANIZATION, RESOURCE, brand, brandGuard, hasBrand } from './symbols';
import { recordCreationSite } from './source-location';

/**
 * Lifecycle options, accepted by every resource construct (in its props).
 * @typeParam P - the property names of the resource that `ignoreChanges` accepts
 */
export interface ResourceOptions<P extends string> {
  /**
   * Never archive, deactivate or delete this object, whatever the configuration says
   * (for example when it is removed from the code, or `archived` is set by mistake).
   * @default false
   */
  readonly protect?: boolean;
  /**
   * Properties that apply only when the object is created; afterwards they are left as they
   * are live (for example a description that people edit in Zulip).
   * @default - every declared property is kept in sync
   */
  readonly ignoreChanges?: readonly P[];
  /**
   * Earlier names (natural keys) of this object: a live object under one of them is renamed
   * to the declared name instead of being archived and replaced. When a live object has the
   * declared name already, that one is managed, and the one under an earlier name is not
   * renamed: the plan warns, and never prunes it. Of several earlier names that are live, one is
   * renamed (the first in sorted order), and the others are left the same way.
   * @default - no earlier names
   */
  readonly renamedFrom?: string | readonly string[];
}

/** Finds the {@link Organization} a construct belongs to, or undefined. */
export function findOrganization(c: IConstruct): Organization | undefined {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
    if (hasBrand(s, ORGANIZATION)) return s as Organization;
  }
  return undefined;
}

/** A kind's resources by compared key and by renamedFrom key, for duplicate checks. */
interface PeerKeys {
  readonly byKey: ReadonlyMap<string, readonly ZulipResource[]>;
  readonly byRenamedFrom: ReadonlyMap<string, readonly ZulipResource[]>;
}

/**
 * The base of every resource construct: one object of the Zulip organization, identified by
 * its natural key (a name, an e-mail, a pattern). Not meant to be extended by users: compose
 * the concrete constructs instead.
 */
export abstract class ZulipResource extends Construct {
  /** True when `x` is a resource construct of zulip-cdk. */
  public static readonly isZulipResource = brandGuard<ZulipResource>(RESOURCE);

  /** The kind of resource. */
  public readonly resourceKind: ResourceKind;
  /** The organization this resource belongs to. */
  public readonly organization: Organization;
  /** @internal Declaration order within the organization. */
  public readonly _sequence: number;
  /** @internal Whether the props passed their schema (other checks only run then). */
  public readonly _propsValid: boolean;
  private readonly propsProblems: readonly string[];
  private readonly lifecycleOptions: ResourceOptions<string>;

  protected constructor(
    scope: Construct,
    id: string,
    kind: ResourceKind,
    what: string,
    schema: z.ZodObject,
    props: unknown,
  ) {
    super(scope, id);
    brand(this, RESOURCE);
    recordCreationSite(this, new.target);
    const org = findOrganization(scope);
    if (!org) {
      throw new ZulipCdkError(
        'NO_ORGANIZATION',
        `${what} '${this.node.path}' is not inside an Organization`,
        {
          where: this.node.path,
          hint: 'create it with an Organization (or a construct inside one) as its scope',
        },
      );
    }
    this.resourceKind = kind;
    this.organization = org;
    this._sequence = org._nextSequence();
    const checked = checkProps(schema, props, what);
    // Unknown keys alone do not stop the other checks: every problem is reported at once.
    this._propsValid = checked.ok || checked.onlyUnknownKeys;
    this.propsProblems = checked.ok ? [] : checked.problems;
    const p = (props ?? {}) as ResourceOptions<string>;
    this.lifecycleOptions = {
      ...(p.protect !== undefined && { protect: p.protect }),
      ...(p.ignoreChanges !== undefined && { ignoreChanges: p.ignoreChanges }),
      ...(p.renamedFrom !== undefined && { renamedFrom: p.renamedFrom }),
    };
    this.node.addValidation({ validate: () => this.runValidation() });
  }

  /** The natural key as declared: a name, a pattern, an e-mail address. */
  public abstract get naturalKey(): string;

  /** @internal The resource as a desired-state entry. */
  public abstract _toDesired(): object;

  /** The checks of this resource beyond its props schema. */
  protected abstract validateResource(): string[];

  /** How keys compare for duplicates: as Zulip compares them (case-insensitively for channels). */
  protected compareKey(key: string): string {
    return KIND_SPECS[this.resourceKind].compareKey(key);
  }

  /** The key a `renamedFrom` entry stands for (playgrounds add their language). */
  protected renamedKey(old: string): string {
    return old;
  }

  /** Says what the key is, for messages: `channel name 'general'`. */
  protected abstract describeKey(): string;

  /** A note on how keys compare, appended to duplicate messages. */
  protected keyNote(): string {
    return '';
  }

  /** The earlier names declared with `renamedFrom`. */
  protected get renamedFromList(): string[] {
    const r = this.lifecycleOptions.renamedFrom;
    if (r === undefined) return [];
    return typeof r === 'string' ? [r] : [...r];
  }

  /** The path and lifecycle every desired entry carries. */
  protected desiredBase(): { path: string; lifecycle?: Lifecycle } {
    const o = this.lifecycleOptions;
    const lifecycle: Lifecycle = {
      ...(o.protect !== undefined && { protect: o.protect }),
      ...(o.ignoreChanges !== undefined &&
        o.ignoreChanges.length > 0 && { ignoreChanges: [...new Set(o.ignoreChanges)].sort() }),
      ...(this.renamedFromList.length > 0 && {
        renamedFrom: [...new Set(this.renamedFromList.map((r) => this.renamedKey(r)))].sort(),
      }),
    };
    return Object.keys(lifecycle).length > 0
      ? { path: this.node.path, lifecycle }
      : { path: this.node.path };
  }

  /**
   * A message when `ref` belongs to another organization, undefined otherwise.
   * @param what - how the reference is named in the message, e.g. `folder`
   */
  protected foreignReference(ref: IConstruct, what: string): string | undefined {
    const other = findOrganization(ref);
    if (other === this.organization) return undefined;
    return `${what} ${ref.node.path} belongs to ${
      other ? `organization '${other.node.path}'` : 'no organization'
    }, not to '${this.organization.node.path}': reference a construct of the same organization`;
  }

  private runValidation(): string[] {
    if (!this._propsValid) return [...this.propsProblems];
    try {
      return [...this.propsProblems, ...this.validateResource(), ...this.validateKeys()];
    } catch (e) {
      // A value the props schema let through but a check could not handle: still one line
      // with this construct's path, not a crash that hides the other problems.
      return [
        ...this.propsProblems,
        `could not be validated (${e instanceof Error ? e.message : String(e)}): check its props`,
      ];
    }
  }

  /**
   * This kind's resources whose props are valid, by {@link comparedKey} and by the compared key
   * of each name in their renamedFrom, each list in declaration order; built once per kind
   * (see `Organization._memo`).
   */
  private peerKeys(): PeerKeys {
    return this.organization._memo(`peer-keys:${this.resourceKind}`, () => {
      const byKey = new Map<string, ZulipResource[]>();
      const byRenamedFrom = new Map<string, ZulipResource[]>();
      const push = (m: Map<string, ZulipResource[]>, k: string, r: ZulipResource): void => {
        const list = m.get(k);
        if (list) list.push(r);
        else m.set(k, [r]);
      };
      for (const r of this.organization._resources()) {
        if (r.resourceKind !== this.resourceKind || !r._propsValid) continue;
        try {
          push(byKey, r.comparedKey(), r);
          for (const k of new Set(r.renamedFromList.map((o) => r.compareKey(r.renamedKey(o)))))
            push(byRenamedFrom, k, r);
        } catch {
          // Its own validation says what is wrong with it; the others are still checked.
        }
      }
      return { byKey, byRenamedFrom };
    });
  }

  /** {@link comparedKey}, once worked out. */
  #comparedKey: string | undefined;

  /**
   * The key duplicates are found by: the natural key as the plan matches it to a live object
   * (a keyed kind's `key` of the desired entry: a linkifier's pattern stripped, as Zulip stores
   * it), compared as Zulip compares it. The plan refuses the same duplicates
   * (`src/engine/declared-keys.ts`), so synth and plan cannot disagree.
   */
  private comparedKey(): string {
    if (this.#comparedKey !== undefined) return this.#comparedKey;
    const { keyed } = KIND_SPECS[this.resourceKind] as KindSpec;
    const key = keyed ? keyed.key(this._toDesired() as never) : this.naturalKey;
    return (this.#comparedKey = this.compareKey(key));
  }

  private validateKeys(): string[] {
    const problems: string[] = [];
    const mine = this.comparedKey();
    const { byKey, byRenamedFrom } = this.peerKeys();
    const first = byKey.get(mine)?.[0];
    if (first && first !== this) {
      problems.push(
        `${this.describeKey()} is already declared by ${first.node.path}${this.keyNote()}: each must be unique in the organization; rename one or remove it`,
      );
    }
    const olds = this.renamedFromList;
    for (const old of olds) {
      const key = this.compareKey(this.renamedKey(old));
      if (key === mine) {
        problems.push(
          `renamedFrom '${old}' is the declared name itself: remove it from renamedFrom`,
        );
        continue;
      }
      const holder = byKey.get(key)?.find((r) => r !== this);
      if (holder) {
        problems.push(
          `renamedFrom '${old}' is the name of ${holder.node.path}, which is still declared: a rename needs the old name to be free; remove one of them`,
        );
      }
      const twin = byRenamedFrom.get(key)?.find((r) => r !== this && r._sequence < this._sequence);
      if (twin) {
        problems.push(
          `renamedFrom '${old}' is also claimed by ${twin.node.path}: only one object can be renamed from it`,
        );
      }
    }
    return problems;
  }
}

/**
 * The base of a construct for one keyed object of the organization (a channel, a linkifier...):
 * it keeps the props, reads the natural key from the prop `key`, and names it in messages as
 * the kind's noun and the prop (`linkifier pattern '#(?P<id>[0-9]+)'`). A new keyed construct
 * whose props are its desired entry's fields extends {@link PlainResource} (`Linkifier` is the
 * smallest); another one: a props interface extending {@link ResourceOptions}, a strict props
 * schema (`propsSchema` in props.ts, with what the construct takes instead of the entry's
 * fields), its `isX` guard (`resourceGuard`), a constructor that calls
 * `super(scope, id, kind, 'ClassName', PropsSchema, props, 'keyProp')`, then
 * `validateResource` and `_toDesired` (`definedProps` copies optional props). Override
 * `naturalKey`, `describeKey` or `keyNote` where the key is not one prop or reads otherwise.
 * @typeParam P - the construct's props
 */
export abstract class KeyedResource<P extends object> extends ZulipResource {
  /** The props as given (checked by the schema before any other check reads them). */
  protected readonly props: P;
  private readonly keyProp: keyof P & string;

  protected constructor(
    scope: Construct,
    id: string,
    kind: ResourceKind,
    what: string,
    schema: z.ZodObject,
    props: P,
    key: keyof P & string,
  ) {
    super(scope, id, kind, what, schema, props);
    this.props = props;
    this.keyProp = key;
  }

  public get naturalKey(): string {
    return String(this.props[this.keyProp]);
  }

  protected describeKey(): string {
    return `${KIND_SPECS[this.resourceKind].nouns[0]} ${this.keyProp} '${this.naturalKey}'`;
  }
}

/** Each plain kind's props schema, made once ({@link PlainResource}). */
const PLAIN_PROPS_SCHEMAS = new Map<ResourceKind, z.ZodObject>();

/**
 * The base of a keyed construct whose props are the fields of its kind's desired entry (a
 * channel folder, a linkifier, a code playground, a saved snippet): its class name
 * (`KindSpec.construct`), props schema (`propsSchema` of the entry) and natural key (the
 * spec's `keyed.keyProperty`) come from its kind, and its desired entry is its props as they
 * are (absent stays absent). A new one: a props interface extending {@link ResourceOptions},
 * its `isX` guard (`resourceGuard`), a constructor that calls
 * `super(scope, id, kind, EntrySchema, props)`, then `validateResource`.
 * @typeParam P - the construct's props
 * @typeParam D - the kind's desired entry
 */
export abstract class PlainResource<P extends object, D extends object> extends KeyedResource<P> {
  /** The entry's own fields, in the schema's order. */
  private readonly fields: readonly (keyof P)[];

  protected constructor(
    scope: Construct,
    id: string,
    kind: KeyedKind,
    entry: z.ZodObject,
    props: P,
  ) {
    let schema = PLAIN_PROPS_SCHEMAS.get(kind);
    if (!schema) PLAIN_PROPS_SCHEMAS.set(kind, (schema = propsSchema(kind, entry)));
    const spec = KIND_SPECS[kind];
    super(
      scope,
      id,
      kind,
      spec.construct,
      schema,
      props,
      spec.keyed.keyProperty as keyof P & string,
    );
    const { path: _path, lifecycle: _lifecycle, ...own } = entry.shape;
    this.fields = Object.keys(own) as (keyof P)[];
  }

  /** @internal */
  public _toDesired(): D {
    return { ...this.desiredBase(), ...definedProps(this.props, this.fields) } as unknown as D;
  }
}
