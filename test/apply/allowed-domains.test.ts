/**
 * Allowed domains end to end against the embedded server, as the owner: created (declared in
 * mixed case, stored in lower case) with sign-up restricted to them, a domain's subdomains
 * switched off and an undeclared one reported, then pruned down to a new one, then pruned to
 * none (Zulip turns the restriction off with the last one); every stage re-plans empty.
 */
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

function stage(
  domains: readonly [string, boolean?][],
  o: { prune?: boolean; restricted?: boolean } = {},
): DesiredState {
  const d = emptyDesiredState('acme');
  for (const [domain, allowSubdomains] of domains)
    d.allowedDomains.push({
      path: `acme/${domain.toLowerCase()}`,
      domain,
      ...(allowSubdomains === undefined ? {} : { allowSubdomains }),
    });
  if (o.restricted !== undefined)
    d.organizationSettings.push({
      path: 'acme/settings',
      properties: { emailsRestrictedToDomains: o.restricted },
      permissions: {},
    });
  if (o.prune === true) d.organization.prune.allowedDomain = true;
  return d;
}

async function live(): Promise<{ domains: [string, boolean][]; restricted: unknown }> {
  const l = await readLiveState(h.client);
  return {
    domains: l.allowedDomains.map((d) => [d.domain, d.allowSubdomains]),
    restricted: l.organizationSettings?.properties.emails_restricted_to_domains,
  };
}

test('create, change, prune, prune the last: each stage converges', async () => {
  const one = await h.converge(
    stage([[' Acme.Example', true], ['beta.example']], { restricted: true }),
  );
  expect(summary(one.first)).toEqual([
    'create allowedDomain["acme.example"]',
    'create allowedDomain["beta.example"]',
    'update organizationSettings["organization"]',
  ]);
  expect(one.result.outcome).toBe('applied');
  expect(summary(one.after)).toEqual([]);
  expect(await live()).toEqual({
    domains: [
      ['acme.example', true],
      ['beta.example', false],
    ],
    restricted: true,
  });

  // Left out, beta.example stays (pruning is off) and is reported.
  const two = await h.converge(stage([['acme.example', false]], { restricted: true }));
  expect(summary(two.first)).toEqual(['update allowedDomain["acme.example"]']);
  expect(
    two.first.warnings.filter((w) => w.address?.startsWith('allowedDomain[') === true),
  ).toEqual([
    {
      code: 'UNDECLARED',
      message:
        'exists in the organization but not in the configuration; left as it is (pruning is off for allowedDomain)',
      address: 'allowedDomain["beta.example"]',
    },
  ]);
  expect(summary(two.after)).toEqual([]);
  expect((await live()).domains).toEqual([
    ['acme.example', false],
    ['beta.example', false],
  ]);

  // The new one lands first: the organization always has a domain, and stays restricted.
  const three = await h.converge(stage([['gamma.example']], { prune: true, restricted: true }));
  expect(summary(three.first)).toEqual([
    'create allowedDomain["gamma.example"]',
    'delete allowedDomain["acme.example"]',
    'delete allowedDomain["beta.example"]',
  ]);
  expect(summary(three.after)).toEqual([]);
  expect(await live()).toEqual({ domains: [['gamma.example', false]], restricted: true });

  // Without a domain, Zulip lifts the restriction: the plan says so beforehand.
  const four = await h.converge(stage([], { prune: true }));
  expect(summary(four.first)).toEqual(['delete allowedDomain["gamma.example"]']);
  expect(four.first.warnings.filter((w) => w.code === 'DOMAIN_RESTRICTION_OFF')).toEqual([
    {
      code: 'DOMAIN_RESTRICTION_OFF',
      message:
        'this plan deletes every allowed domain, and Zulip turns emailsRestrictedToDomains off when it deletes the last one: then anyone with an e-mail address may sign up, unless an invitation is required. Declare emailsRestrictedToDomains: false (OrganizationSettings) to make it part of the configuration, or keep a domain',
      address: 'allowedDomain["gamma.example"]',
    },
  ]);
  expect(summary(four.after)).toEqual([]);
  expect(await live()).toEqual({ domains: [], restricted: false });
});

test('a domain declared on while the plan deletes every domain: refused by the plan', async () => {
  await h.converge(stage([['acme.example']], { restricted: true }));
  await expect(h.plan(stage([], { prune: true, restricted: true }))).rejects.toThrow(
    'emailsRestrictedToDomains is declared on, but this plan deletes every allowed domain, and Zulip turns emailsRestrictedToDomains off when it deletes the last one',
  );
});

// `get_realm_domains` has no ORDER BY: PostgreSQL lists the rows in storage order, which a PATCH
// that rewrites a row can change between the plan's read and apply's. These two domains have the
// same 31-bit FNV-1a hash: the IDs must not depend on the order Zulip lists them in, or apply
// would find the other domain under a saved change's liveId.
test('two domains whose derived IDs collide get the same IDs in either order of the read', async () => {
  const rows = [
    { id: 901, domain: 'd288904.example', allowSubdomains: false },
    { id: 902, domain: 'd658220.example', allowSubdomains: true },
  ];
  const ids = async (): Promise<Record<string, number>> =>
    Object.fromEntries((await readLiveState(h.client)).allowedDomains.map((d) => [d.domain, d.id]));
  h.z.org.realmDomains = [...rows];
  const first = await ids();
  expect(new Set(Object.values(first)).size).toBe(2);
  h.z.org.realmDomains = [...rows].reverse();
  expect(await ids()).toEqual(first);
});
