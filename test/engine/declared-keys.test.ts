/**
 * A desired state that declares an object twice (by the kind's natural key, as Zulip compares
 * it) is refused before planning: synth refuses it on the constructs, but `plan --desired` and
 * the library's `plan()` take desired states from elsewhere.
 */
import { plan } from '../../src/engine';
import { thrownError } from '../support/errors';
import { LiveBuilder, dChannel, desired } from './fixtures';

test('two channels whose names differ only in case, two domains, one user twice: all listed', () => {
  const e = thrownError(
    () =>
      plan(
        desired((d) => {
          d.channels.push(dChannel('general'), { ...dChannel('General'), path: 'acme/General2' });
          d.allowedDomains.push(
            { path: 'acme/d1', domain: 'acme.example' },
            { path: 'acme/d2', domain: ' ACME.example' },
          );
          d.users.push(
            { path: 'acme/alice', email: 'alice@example.com', role: 'member' },
            { path: 'acme/alice2', email: 'Alice@example.com', fullName: 'Alice' },
          );
          d.subscriptionSettings.push(
            { path: 'acme/s1', channel: 'general', pinToTop: true },
            { path: 'acme/s2', channel: 'GENERAL', pinToTop: false },
          );
        }),
        new LiveBuilder().build(),
        {},
      ),
    'DESIRED_STATE_INVALID',
  );
  expect(e.message.split('\n')).toEqual([
    'The desired state declares some objects twice:',
    '  - user["Alice@example.com"] (acme/alice2) duplicates user["alice@example.com"] (acme/alice): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one',
    '  - channel["General"] (acme/General2) duplicates channel["general"] (acme/general): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one',
    '  - subscriptionSettings["GENERAL"] (acme/s2) duplicates subscriptionSettings["general"] (acme/s1): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one',
    '  - allowedDomain["acme.example"] (acme/d2) duplicates allowedDomain["acme.example"] (acme/d1): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one',
  ]);
});

test('distinct keys plan as before', () => {
  const p = plan(
    desired((d) => d.channels.push(dChannel('general'), dChannel('random'))),
    new LiveBuilder().build(),
    {},
  );
  expect(p.changes.length).toBeGreaterThan(0);
});
