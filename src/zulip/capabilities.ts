import { ZulipCdkError } from '../model/errors';
import { FEATURES, MIN_FEATURE_LEVEL, supports } from '../model/features';
import type { FeatureName } from '../model/features';

/**
 * What a server can do, learned from `zulip_feature_level` and `zulip_version` (from
 * `POST /register` or `GET /server_settings`). The one capability check every layer uses;
 * it is built on `supports()` and `FEATURES` in src/model/features.ts.
 */
export class ServerCapabilities {
  public constructor(
    /** `zulip_feature_level`. */
    public readonly featureLevel: number,
    /** `zulip_version`, e.g. `10.2`. */
    public readonly version: string,
  ) {}

  /** Whether the server has `feature`. */
  public supports(feature: FeatureName): boolean {
    return supports(this.featureLevel, feature);
  }

  /** Throws `UNSUPPORTED_FEATURE` (naming the feature, the level needed and the server's) unless the server has `feature`. */
  public require(feature: FeatureName, where?: string): void {
    if (this.supports(feature)) return;
    const f = FEATURES[feature];
    throw new ZulipCdkError(
      'UNSUPPORTED_FEATURE',
      `${f.what} needs Zulip feature level ${f.level}; the server is Zulip ${this.version} (feature level ${this.featureLevel}).`,
      where === undefined
        ? { hint: 'Upgrade the Zulip server or remove what needs this feature.' }
        : { where, hint: 'Upgrade the Zulip server or remove what needs this feature.' },
    );
  }

  /** Whether the server is older than the oldest zulip-cdk supports (Zulip 10.2). */
  public get belowMinimum(): boolean {
    return this.featureLevel < MIN_FEATURE_LEVEL;
  }

  public toJSON(): { featureLevel: number; version: string } {
    return { featureLevel: this.featureLevel, version: this.version };
  }
}
