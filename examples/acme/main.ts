import { App } from 'zulip-cdk';
import { acme } from './organization';

// `zulip-cdk synth` (or `npx tsx examples/acme/main.ts`) writes zulip.out/acme.zulip.json.
const app = new App();
acme(app);
app.synth();
