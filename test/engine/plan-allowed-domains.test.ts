/**
 * The plan of allowed domains: matched as Zulip stores them (stripped, lower-cased), created,
 * changed in place, reported or pruned when undeclared; every change refused on its construct
 * to an account that is not an organization owner (`require_realm_owner`); and what deleting
 * the last domain does to `emailsRestrictedToDomains` (`do_remove_realm_domain`).
 */
import { plan, PlanSchema } from '../../src/engine';
import type { Change, Plan } from '../../src/engine';
import { ROLES } from '../../src/model';
import type { DesiredAllowedDomain, DesiredState, LiveState } from '../../src/model';
import { thrownError } from '../support/errors';
import { LiveBuilder, desired } from './fixtures';

function run(d: DesiredState, live: LiveState): Plan {
  const p = plan(d, live, {});
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}
const mine = (p: Plan): Change[] => p.changes.filter((c) => c.kind === 'allowedDomain');
const dDomain = (domain: string, o: Partial<DesiredAllowedDomain> = {}): DesiredAllowedDomain => ({
  path: `acme/${domain.trim().toLowerCase()}`,
  domain,
  ...o,
});
/** Declares the two live domains as they are. */
const declareLive = (d: DesiredState): void => {
  d.allowedDomains.push(
    dDomain('acme.example'),
    dDomain('beta.example', { allowSubdomains: true }),
  );
};
/** Declares `emailsRestrictedToDomains`. */
const restrict = (d: DesiredState, on: boolean): void => {
  d.organizationSettings.push({
    path: 'acme/settings',
    properties: { emailsRestrictedToDomains: on },
    permissions: {},
  });
};
/** Live: acme.example (no subdomains) and beta.example (subdomains), restricted or not. */
function org(restricted?: boolean): LiveBuilder {
  const b = new LiveBuilder();
  b.allowedDomain('acme.example');
  b.allowedDomain('beta.example', true);
  if (restricted !== undefined)
    b.state.organizationSettings = {
      properties: { emails_restricted_to_domains: restricted },
      permissions: {},
    };
  return b;
}
/** The live state as an administrator (not an owner) reads it. */
const asAdministrator = (live: LiveState): LiveState => ({
  ...live,
  me: { userId: 2, email: 'admin@example.com', role: ROLES.administrator },
});

describe('plan: allowed domains', () => {
  it('declared as Zulip stores them, whatever the case and spaces: no change', () => {
    const p = run(
      desired((d) => {
        d.allowedDomains.push(
          dDomain(' ACME.example'),
          dDomain('Beta.Example', { allowSubdomains: true }),
        );
      }),
      org().build(),
    );
    expect(mine(p)).toEqual([]);
    expect(p.warnings).toEqual([]);
  });

  it('creates a new one as Zulip will store it, Zulip default for subdomains', () => {
    const p = run(
      desired((d) => {
        declareLive(d);
        d.allowedDomains.push(dDomain(' Gamma.Example '));
      }),
      org().build(),
    );
    expect(mine(p)).toEqual([
      {
        id: 'allowedDomain["gamma.example"]#create',
        action: 'create',
        kind: 'allowedDomain',
        address: 'allowedDomain["gamma.example"]',
        key: 'gamma.example',
        path: 'acme/gamma.example',
        dependsOn: [],
        tags: [],
        properties: { domain: 'gamma.example', allowSubdomains: false },
      },
    ]);
  });

  it('changes allowSubdomains in place, unless it is ignored', () => {
    const live = org().build();
    const beta = live.allowedDomains[1]!;
    const p = run(
      desired((d) => {
        d.allowedDomains.push(dDomain('acme.example', { allowSubdomains: true }));
        d.allowedDomains.push(dDomain('beta.example'));
      }),
      live,
    );
    expect(mine(p).map((c) => [c.id, c.action === 'update' ? c.properties : undefined])).toEqual([
      [
        'allowedDomain["acme.example"]#update',
        [{ property: 'allowSubdomains', before: false, after: true }],
      ],
      [
        'allowedDomain["beta.example"]#update',
        [{ property: 'allowSubdomains', before: true, after: false }],
      ],
    ]);
    expect(mine(p)[1]).toMatchObject({ liveId: beta.id });
    const ignored = run(
      desired((d) => {
        d.allowedDomains.push(dDomain('acme.example'));
        d.allowedDomains.push(
          dDomain('beta.example', { lifecycle: { ignoreChanges: ['allowSubdomains'] } }),
        );
      }),
      live,
    );
    expect(mine(ignored)).toEqual([]);
  });

  it('an undeclared domain is reported; pruned, it is deleted (destructive)', () => {
    const d = desired((x) => x.allowedDomains.push(dDomain('acme.example')));
    const reported = run(d, org().build());
    expect(mine(reported)).toEqual([]);
    expect(reported.warnings).toEqual([
      {
        code: 'UNDECLARED',
        message:
          'exists in the organization but not in the configuration; left as it is (pruning is off for allowedDomain)',
        address: 'allowedDomain["beta.example"]',
      },
    ]);
    d.organization.prune.allowedDomain = true;
    const pruned = run(d, org().build());
    expect(mine(pruned)).toEqual([
      expect.objectContaining({
        id: 'allowedDomain["beta.example"]#delete',
        action: 'delete',
        path: null,
        reason: 'prune',
        before: { domain: 'beta.example', allowSubdomains: true },
        tags: expect.arrayContaining(['destructive']),
      }),
    ]);
  });

  it('a new domain lands before the organization settings that restrict sign-up to the domains', () => {
    const p = run(
      desired((d) => {
        declareLive(d);
        d.allowedDomains.push(dDomain('gamma.example'));
        restrict(d, true);
      }),
      org(false).build(),
    );
    expect(p.changes.map((c) => c.id)).toEqual([
      'allowedDomain["gamma.example"]#create',
      'organizationSettings["organization"]#update',
    ]);
    // It waits for it: a plan targeted at the settings keeps the new domain.
    expect(p.changes[1]?.dependsOn).toEqual(['allowedDomain["gamma.example"]#create']);
    const targeted = plan(
      desired((d) => {
        d.allowedDomains.push(dDomain('gamma.example'));
        restrict(d, true);
      }),
      org(false).build(),
      { targets: ['organizationSettings'] },
    );
    expect(targeted.changes.map((c) => c.id)).toEqual([
      'allowedDomain["gamma.example"]#create',
      'organizationSettings["organization"]#update',
    ]);
  });

  it('every change needs an organization owner: a plan error on each construct for an administrator', () => {
    const d = desired((x) => {
      x.allowedDomains.push(dDomain('acme.example', { allowSubdomains: true }));
      x.allowedDomains.push(dDomain('gamma.example'));
      x.organization.prune.allowedDomain = true;
    });
    const error = thrownError(() => plan(d, asAdministrator(org().build()), {}));
    const message = error.message;
    for (const [address, path, what] of [
      ['allowedDomain["gamma.example"]', 'acme/gamma.example', 'adding an allowed domain'],
      ['allowedDomain["acme.example"]', 'acme/acme.example', 'changing an allowed domain'],
      ['allowedDomain["beta.example"]', 'undeclared', 'deleting an allowed domain'],
    ])
      expect(message).toContain(
        `${address} (${path}): ${what} needs an organization owner ("Must be an organization owner"), and the applying account admin@example.com is not one. Apply with an owner's API key, or leave this change out`,
      );
    expect(error.hint).toContain("a human organization owner's");
    // Nothing to change: nothing to refuse.
    const same = desired(declareLive);
    expect(mine(run(same, asAdministrator(org().build())))).toEqual([]);
  });
});

describe('plan: deleting the last allowed domain (do_remove_realm_domain)', () => {
  const pruneAll = (restricted?: boolean): DesiredState =>
    desired((d) => {
      d.organization.prune.allowedDomain = true;
      if (restricted !== undefined) restrict(d, restricted);
    });

  it('declared on: a plan error, on the organization settings', () => {
    expect(thrownError(() => plan(pruneAll(true), org(true).build(), {})).message).toContain(
      'organizationSettings["organization"] (acme/settings): emailsRestrictedToDomains is declared on, but this plan deletes every allowed domain, and Zulip turns emailsRestrictedToDomains off when it deletes the last one: declare the domains people may sign up from (AllowedDomain), or emailsRestrictedToDomains: false',
    );
    // Turned on by the same plan: the deletes come after it, and still turn it off.
    expect(() => plan(pruneAll(true), org(false).build(), {})).toThrow('is declared on');
  });

  it('not declared and on: a warning that sign-up opens up', () => {
    const p = run(pruneAll(), org(true).build());
    expect(mine(p).map((c) => c.action)).toEqual(['delete', 'delete']);
    // On the delete that runs last, which waits for the other.
    expect(p.warnings.filter((w) => w.code === 'DOMAIN_RESTRICTION_OFF')).toEqual([
      expect.objectContaining({
        address: 'allowedDomain["beta.example"]',
        message: expect.stringContaining('anyone with an e-mail address may sign up'),
      }),
    ]);
    expect(mine(p).map((c) => [c.id, c.dependsOn])).toEqual([
      ['allowedDomain["acme.example"]#delete', []],
      ['allowedDomain["beta.example"]#delete', ['allowedDomain["acme.example"]#delete']],
    ]);
  });

  it('turning the restriction on with no domain left: a warning that nobody can sign up', () => {
    const none = new LiveBuilder();
    none.state.organizationSettings = {
      properties: { emails_restricted_to_domains: false },
      permissions: {},
    };
    const on = desired((d) => restrict(d, true));
    expect(run(on, none.build()).warnings).toContainEqual({
      code: 'NO_ALLOWED_DOMAIN',
      message: expect.stringContaining('Zulip then refuses every new account, invited or not'),
      address: 'organizationSettings["organization"]',
      path: 'acme/settings',
    });
    // A domain declared with it, or the live ones kept: nothing to say.
    const withDomain = desired((d) => {
      restrict(d, true);
      d.allowedDomains.push(dDomain('acme.example'));
    });
    expect(run(withDomain, none.build()).warnings.map((w) => w.code)).not.toContain(
      'NO_ALLOWED_DOMAIN',
    );
    expect(run(on, org(false).build()).warnings.map((w) => w.code)).not.toContain(
      'NO_ALLOWED_DOMAIN',
    );
  });

  it('a targeted plan keeps what the check relied on (--target keeps what a change waits for)', () => {
    // The last delete targeted: the other comes too, and so does the warning.
    const last = plan(pruneAll(), org(true).build(), {
      targets: ['allowedDomain["beta.example"]'],
    });
    expect(mine(last).map((c) => c.id)).toEqual([
      'allowedDomain["acme.example"]#delete',
      'allowedDomain["beta.example"]#delete',
    ]);
    expect(last.warnings.map((w) => w.code)).toContain('DOMAIN_RESTRICTION_OFF');
    // The other one alone leaves a domain: no warning.
    const first = plan(pruneAll(), org(true).build(), {
      targets: ['allowedDomain["acme.example"]'],
    });
    expect(mine(first).map((c) => c.id)).toEqual(['allowedDomain["acme.example"]#delete']);
    expect(first.warnings.map((w) => w.code)).not.toContain('DOMAIN_RESTRICTION_OFF');
    // A delete targeted while a domain is created: the create comes with it, and the
    // restriction declared on stays on.
    const d = desired((d) => {
      d.organization.prune.allowedDomain = true;
      d.allowedDomains.push(dDomain('gamma.example'));
      restrict(d, true);
    });
    const replaced = plan(d, org(true).build(), { targets: ['allowedDomain["acme.example"]'] });
    expect(mine(replaced).map((c) => c.id)).toEqual([
      'allowedDomain["gamma.example"]#create',
      'allowedDomain["acme.example"]#delete',
    ]);
  });

  it.each<[string, DesiredState, boolean | undefined]>([
    ['declared off', pruneAll(false), true],
    ['not declared, and off', pruneAll(), false],
    [
      'a domain created by the same plan',
      desired((d) => {
        d.organization.prune.allowedDomain = true;
        d.allowedDomains.push(dDomain('gamma.example'));
      }),
      true,
    ],
    [
      'a domain kept',
      desired((d) => {
        d.organization.prune.allowedDomain = true;
        d.allowedDomains.push(dDomain('acme.example'));
      }),
      true,
    ],
  ])('%s: nothing to say', (_name, d, restricted) => {
    const p = run(d, org(restricted).build());
    expect(p.warnings.filter((w) => w.code === 'DOMAIN_RESTRICTION_OFF')).toEqual([]);
  });
});
