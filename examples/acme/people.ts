/**
 * The people of the example organization, by e-mail. They match the demo organization of the
 * embedded server (`npm start`); set ACME_EMAIL_DOMAIN to try the example elsewhere.
 */
export const emailDomain = process.env.ACME_EMAIL_DOMAIN ?? 'zulip-cdk.example';
const email = (local: string): string => `${local}@${emailDomain}`;

export const people = {
  olivia: email('owner'), // the owner, who applies the configuration
  ada: email('admin'),
  alan: email('alan'),
  mona: email('moderator'),
  alice: email('alice'),
  bob: email('bob'),
  carol: email('carol'),
  dave: email('dave'),
  erin: email('erin'),
  gus: email('guest'),
  frank: email('former'), // left the company: offboarded by review
} as const;
