import path from 'node:path';
import { ZulipClient } from '../../zulip';
import { watchDrift } from '../../provider/watch';
import type { Difference, WatchCause, WatchEvent } from '../../provider/watch';
import { UsageError, oneOf } from '../command';
import type { Command } from '../command';
import { checkOneDesiredSource, loadDesiredState } from '../plan-sources';
import { retryLine } from '../progress';

const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** Exit code of `--exit-on-drift` when a difference is seen. */
export const WATCH_DRIFT_EXIT_CODE = 2;

/** How a drift line says when the difference was seen, by the cause of the comparison. */
const DRIFT_WHEN: Record<WatchCause, string> = {
  start: 'differs at the start',
  events: 'changed',
  reregistered: 'changed while the queue was away',
};

const value = (v: unknown): string => (v === null ? 'nothing' : JSON.stringify(v));

/** What apply would do about a difference, in words: `create it`, `change its members`. */
function wouldDo(d: Difference): string {
  switch (d.action) {
    case 'membership':
      return d.kind === 'channel' ? 'change its subscribers' : 'change its members';
    case 'reorder':
      return 'reorder them';
    default:
      return `${d.action} it`;
  }
}

/** One line of text for a watch event. */
export function watchLine(e: WatchEvent): string {
  switch (e.type) {
    case 'watching':
      return (
        `${e.at} watching organization '${e.organization}' on ${e.site} ` +
        `(events: ${e.eventTypes.join(', ') || 'none'}); ` +
        `${e.differences === 0 ? 'it matches the configuration' : `${e.differences} difference(s) at the start`}`
      );
    case 'drift': {
      const what = e.property === undefined ? e.address : `${e.address} ${e.property}`;
      const declared = e.path === null ? 'not in the configuration' : `declared at ${e.path}`;
      const when = DRIFT_WHEN[e.cause];
      const events = e.events.length > 0 ? `; Zulip events: ${e.events.join(', ')}` : '';
      return (
        `${e.at} drift ${what} ${when}: the organization has ${value(e.live)}, ` +
        `the configuration says ${value(e.desired)} (${declared}; apply would ${wouldDo(e)}${events})`
      );
    }
    case 'resolved': {
      const what = e.property === undefined ? e.address : `${e.address} ${e.property}`;
      return `${e.at} resolved ${what}: matches the configuration again`;
    }
    case 'unplannable':
      return `${e.at} drift: the configuration cannot be planned against the organization any more (${e.code}), after a change made in Zulip: ${e.message}`;
    case 'reconnecting':
      return e.reason === 'queue-expired'
        ? `${e.at} the event queue expired (${e.message}); registering a new one and comparing again`
        : `${e.at} lost the connection (${e.message}); retrying in ${(e.delayMs / 1000).toFixed(1)} s`;
  }
}

/**
 * `zulip-cdk watch`: keeps an event queue on the organization and reports every change to what
 * the configuration manages as it happens. The logic is `watchDrift` (src/provider/watch.ts).
 */
export const watchCommand: Command = {
  name: 'watch',
  summary: 'Report changes to managed objects as they happen (drift), from an event queue',
  usage: `usage: zulip-cdk watch [--app CMD | --desired FILE|DIR] [--org ID] [--zuliprc PATH]
                       [--format text|json] [--exit-on-drift] [--for SECONDS]

Registers an event queue on the organization for the kinds the configuration manages and
reports, as it happens, every difference between the organization and the configuration: what
changed (address and property, the value now and the configured one), when, and the construct
path it contradicts. Differences present at the start are reported first. When Zulip expires the
queue (BAD_EVENT_QUEUE_ID, after 10 minutes without a request) or the connection drops, watch
registers again and reports what changed in the gap. Zulip's events do not say who made a
change; the organization's audit log does.

  --app CMD            the command that synthesizes the app (default: "app" of zulip-cdk.json
                       or cdktf.json)
  --desired FILE|DIR   an already synthesized desired state (*.zulip.json) instead
  --org ID             the organization when the app declares several
  --zuliprc PATH       credentials (default: ZULIP_EMAIL/ZULIP_API_KEY/ZULIP_SITE, then
                       ZULIP_CONFIG, then ~/.zuliprc)
  --format F           text (default) or json (JSON Lines: one object per event, "type" first)
  --exit-on-drift      stop at the first difference, with exit code ${WATCH_DRIFT_EXIT_CODE}
  --for SECONDS        stop after this long (default: until interrupted)

Exit codes: 0 stopped (interrupted, or --for elapsed) without --exit-on-drift, or with it and no
difference seen; ${WATCH_DRIFT_EXIT_CODE} with --exit-on-drift, a difference was seen; 1 error.
`,
  options: {
    app: { type: 'string' },
    desired: { type: 'string' },
    org: { type: 'string' },
    zuliprc: { type: 'string' },
    format: { type: 'string' },
    'exit-on-drift': { type: 'boolean' },
    for: { type: 'string' },
  },
  async run({ values, io }) {
    const format: Format = oneOf('format', values.format, FORMATS) ?? 'text';
    checkOneDesiredSource(values);
    let forMs: number | undefined;
    if (typeof values.for === 'string') {
      const s = Number(values.for);
      if (!Number.isFinite(s) || s <= 0)
        throw new UsageError(`--for must be a positive number of seconds, got '${values.for}'`);
      forMs = s * 1000;
    }
    const exitOnDrift = values['exit-on-drift'] === true;
    const desired = await loadDesiredState(values, io);
    const zuliprc = typeof values.zuliprc === 'string' ? values.zuliprc : undefined;
    const client = ZulipClient.fromEnvironment({
      ...(zuliprc === undefined ? {} : { zuliprc: path.resolve(io.cwd, zuliprc) }),
      env: io.env,
    });
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    void io.interrupted?.then(stop);
    const timer = forMs === undefined ? undefined : setTimeout(stop, forMs);
    const stopRetries = client.onEvent((e) => {
      if (e.type === 'retry') io.stderr.write(`${retryLine(e)}\n`);
    });
    let drifted = false;
    try {
      await watchDrift({
        client,
        desired,
        signal: controller.signal,
        onEvent: (e) => {
          io.stdout.write(`${format === 'json' ? JSON.stringify(e) : watchLine(e)}\n`);
          if ((e.type === 'drift' || e.type === 'unplannable') && exitOnDrift) {
            drifted = true;
            controller.abort();
          }
        },
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      stopRetries();
      await client.close();
    }
    return drifted ? WATCH_DRIFT_EXIT_CODE : 0;
  },
};
