/** `--target` names (src/engine/targets.ts): every kind's objects, declared or live, by its comparison. */
import { checkTargets } from '../../src/engine';
import { isZulipCdkError } from '../../src/model';
import { LiveBuilder, dChannel, dFolder, desired } from './fixtures';

const b = new LiveBuilder();
b.channel('general');
b.folder('Ops');
b.linkifier('#(?P<id>[0-9]+)', 'https://example.com/{id}');
const live = b.build();
const d = desired((x) => {
  x.channels.push(dChannel('new'));
  x.channelFolders.push(dFolder('Docs'));
});

function problem(target: string): string | undefined {
  try {
    checkTargets([target], d, live);
    return undefined;
  } catch (e) {
    if (isZulipCdkError(e) && e.code === 'INVALID_ARGUMENT') return e.message;
    throw e;
  }
}

test.each([
  'channel',
  'channel["general"]',
  'channel["New"]',
  'channelFolder["ops"]',
  'channelFolder["Docs"]',
  'channelFolder["*"]',
  'linkifier["#(?P<id>[0-9]+)"]',
  'user["ALICE@example.com"]',
  'subscriptionSettings["general"]',
  'organizationSettings["organization"]',
])('%s names something', (t) => {
  expect(problem(t)).toBeUndefined();
});

test.each([
  ['channel["nope"]', 'no channel with that name'],
  ['user["nobody@example.com"]', 'no user with that address'],
  ['linkifier["#x"]', 'no linkifier'],
  ['organizationSettings["org"]', 'is declared or in the organization'],
  ['channel["*"]', 'no channel with that name'],
  ['userGroups', "'userGroups' is not a kind (did you mean 'userGroup'?)"],
])('%s names nothing', (t, message) => {
  expect(problem(t)).toContain(message);
});
