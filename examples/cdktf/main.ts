import { App, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { acme } from '../acme/organization';

/**
 * An organization inside a cdktf stack, next to whatever Terraform resources the stack holds.
 * `cdktf synth` (or `npx tsx examples/cdktf/main.ts`) writes
 * cdktf.out/stacks/chat/acme.zulip.json beside the stack's cdk.tf.json.
 */
class ChatStack extends TerraformStack {
  public constructor(scope: Construct, id: string) {
    super(scope, id);
    acme(this);
  }
}

const app = new App();
new ChatStack(app, 'chat');
app.synth();
