/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON bodies and OpenAPI nodes are untyped by nature */
/**
 * Validates emulator responses against Zulip's OpenAPI description (zulip.yaml, Zulip 10.2).
 * The yaml is loaded once through ./openapi (shared with the API client's tests) and every
 * validator is compiled once and cached, keyed by operation and status.
 *
 * OpenAPI 3.0 → JSON Schema: `nullable` becomes a `null` type, `oneOf` becomes `anyOf` (the
 * yaml's error `oneOf`s list overlapping `CodedError` variants, which can never match exactly
 * one), `retry-after` is a number (NOTES 4: the server sends a float). Newer fields than the
 * yaml (FL > 372: folders, topics_policy, later channel settings...) are added where the yaml
 * says `additionalProperties: false`, typed from NOTES; the feature-level tests check that they
 * are absent at 372.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { compilePath } from '../../src/emulator/router';
import { loadOpenApi, resolveSchema } from './openapi';

type Json = Record<string, any>;

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);

const GSV = (): Json => resolveSchema({ $ref: '#/components/schemas/GroupSettingValue' });

/** Fields newer than the yaml, by the kind of object they appear on. */
function newerChannelFields(): Json {
  const gsv = GSV();
  return {
    folder_id: { type: ['integer', 'null'] },
    topics_policy: {
      enum: ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'],
    },
    subscriber_count: { type: 'integer' },
    can_move_messages_out_of_channel_group: gsv,
    can_move_messages_within_channel_group: gsv,
    can_resolve_topics_group: gsv,
    can_delete_any_message_group: gsv,
    can_delete_own_message_group: gsv,
    can_create_topic_group: gsv,
  };
}

const NEWER_REGISTER_FIELDS: Json = {
  channel_folders: { type: 'array' },
  max_channel_folder_name_length: { type: 'integer' },
  max_channel_folder_description_length: { type: 'integer' },
  max_bulk_new_subscription_messages: { type: 'integer' },
  realm_topics_policy: { type: 'string' },
  realm_can_set_topics_policy_group: {},
  // FL 407 and 416 (api_docs/changelog.md).
  realm_can_set_delete_message_policy_group: {},
  realm_welcome_message_custom_text: { type: 'string' },
  realm_send_channel_events_messages: { type: 'boolean' },
  // FL 409 (api_docs/changelog.md).
  realm_require_e2ee_push_notifications: { type: 'boolean' },
  // FL 390 (api_docs/changelog.md): the user's navigation views.
  navigation_views: { type: 'array' },
};

/** The default user settings newer than the yaml (FL 385, 398, 411, 431: api_docs/changelog.md). */
const NEWER_USER_SETTINGS_DEFAULTS: Json = {
  resolved_topic_notice_auto_read_policy: { enum: ['always', 'except_followed', 'never'] },
  web_left_sidebar_unreads_count_summary: { type: 'boolean' },
  web_left_sidebar_show_channel_folders: { type: 'boolean' },
  web_inbox_show_channel_folders: { type: 'boolean' },
};

const NEWER_LINKIFIER_FIELDS: Json = {
  example_input: { type: ['string', 'null'] },
  reverse_template: { type: ['string', 'null'] },
  alternative_url_templates: { type: 'array', items: { type: 'string' } },
};

/** OpenAPI 3.0 schema → JSON Schema as described above. */
function toJsonSchema(node: unknown, key?: string): any {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n));
  if (!node || typeof node !== 'object') return node;
  const src = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'example' || k === 'examples' || k === 'description' || k === 'nullable') continue;
    if (k === 'properties' && v && typeof v === 'object') {
      const props: Json = {};
      for (const [pk, pv] of Object.entries(v as Json)) props[pk] = toJsonSchema(pv, pk);
      out.properties = props;
      continue;
    }
    out[k === 'oneOf' ? 'anyOf' : k] = toJsonSchema(v);
  }
  if (key === 'retry-after') out.type = 'number';
  if (src.additionalProperties === false && out.properties) {
    const props = out.properties as Json;
    if ('stream_id' in props && 'invite_only' in props) Object.assign(props, newerChannelFields());
    if ('pattern' in props && 'url_template' in props && 'id' in props)
      Object.assign(props, NEWER_LINKIFIER_FIELDS);
    if ('queue_id' in props && 'zulip_feature_level' in props)
      Object.assign(props, NEWER_REGISTER_FIELDS);
    if ('emojiset_choices' in props && 'available_notification_sounds' in props)
      Object.assign(props, NEWER_USER_SETTINGS_DEFAULTS);
    // FL 433 (api_docs/changelog.md): user objects carry is_imported_stub.
    if ('is_bot' in props && 'date_joined' in props) {
      props.is_imported_stub = { type: 'boolean' };
      // GET /users/me: the yaml lists a human's keys only, but get_profile_backend answers a
      // bot with format_user_row's bot_type and bot_owner_id too.
      props.bot_type ??= { type: ['integer', 'null'] };
      props.bot_owner_id ??= { type: ['integer', 'null'] };
    }
    if ('subscribed' in props && 'already_subscribed' in props)
      props.new_subscription_messages_sent = { type: 'boolean' };
    // IncompatibleParametersError (FL 441's protected-history rule, among others) carries the
    // parameter names in a `parameters` data field the 10.2 yaml's error schemas do not list.
    if ('code' in props && 'msg' in props && 'result' in props && !('parameters' in props))
      props.parameters = { type: 'string' };
    // A `stream` update event carries null for "realm default" retention and "no folder"
    // (the server sends None; the yaml's `value` lists no null).
    if ('property' in props && 'value' in props && 'stream_id' in props && props.value.anyOf)
      props.value = { anyOf: [...(props.value.anyOf as unknown[]), { type: 'null' }] };
  }
  if (src.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    else if (out.type === undefined && Object.keys(out).some((k) => k !== 'properties'))
      return { anyOf: [{ type: 'null' }, out] };
  }
  return out;
}

interface Template {
  path: string;
  re: RegExp;
  params: number;
}

let templates: Template[] | undefined;

function allTemplates(): Template[] {
  templates ??= Object.keys(loadOpenApi().paths as Json)
    .map((path) => {
      const { re, names } = compilePath(path);
      return { path, re, params: names.length };
    })
    .sort(
      (a, b) =>
        a.params - b.params || Number(b.path.includes('_id}')) - Number(a.path.includes('_id}')),
    );
  return templates;
}

/** The yaml path template for a concrete path under /api/v1 and method, if the yaml has one. */
export function findTemplate(method: string, path: string): string | undefined {
  const doc = loadOpenApi();
  for (const t of allTemplates()) {
    if (t.re.test(path) && doc.paths[t.path]?.[method.toLowerCase()]) return t.path;
  }
  return undefined;
}

const cache = new Map<string, ValidateFunction | null>();

function compiled(key: string, make: () => unknown): ValidateFunction | null {
  if (!cache.has(key)) {
    const schema = make();
    cache.set(
      key,
      schema === undefined ? null : ajv.compile(toJsonSchema(resolveSchema(schema)) as Json),
    );
  }
  return cache.get(key) ?? null;
}

function componentValidator(name: string): ValidateFunction {
  return compiled(`component ${name}`, () => ({
    $ref: `#/components/schemas/${name}`,
  })) as ValidateFunction;
}

const LOOSE_ERROR: Json = {
  type: 'object',
  required: ['result', 'msg', 'code'],
  properties: { result: { enum: ['error'] }, msg: { type: 'string' }, code: { type: 'string' } },
};
const looseError = ajv.compile(LOOSE_ERROR);

/**
 * Data fields the server sends that the yaml's error schemas leave out (NOTES 2.6, 2.7): they
 * are checked for shape here and then removed before the yaml's schema is applied.
 */
function stripServerOnlyErrorData(body: Json): Json {
  const copy = { ...body };
  if (copy.code === 'CANNOT_DEACTIVATE_GROUP_IN_USE' && Array.isArray(copy.objections))
    delete copy.objections;
  if (copy.code === 'BAD_REQUEST' && copy.errors && typeof copy.errors === 'object')
    delete copy.errors;
  // RequestVariableConversionError (zerver/lib/request.py): `var_name` and `bad_value`.
  if (copy.code === 'REQUEST_VARIABLE_INVALID' && typeof copy.var_name === 'string') {
    delete copy.var_name;
    delete copy.bad_value;
  }
  // ChannelExistsError and CannotSetTopicsPolicyError (zerver/lib/exceptions.py).
  if (copy.code === 'CHANNEL_ALREADY_EXISTS' && typeof copy.channel_name === 'string')
    delete copy.channel_name;
  if (typeof copy.empty_topic_display_name === 'string') delete copy.empty_topic_display_name;
  // ExpectationMismatchError (zerver/lib/exceptions.py): data_fields = ["field_name"].
  if (copy.code === 'EXPECTATION_MISMATCH' && typeof copy.field_name === 'string')
    delete copy.field_name;
  return copy;
}

/**
 * Events newer than the yaml (FL > 372), with their shapes from NOTES and the changelog: they
 * are checked here and removed before the yaml's `GET /events` schema is applied.
 */
const NEWER_EVENTS = ajv.compile({
  anyOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'type', 'op', 'channel_folder'],
      properties: {
        id: { type: 'integer' },
        type: { const: 'channel_folder' },
        op: { const: 'add' },
        channel_folder: {
          type: 'object',
          required: ['id', 'name', 'description', 'rendered_description', 'is_archived'],
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'type', 'op', 'channel_folder_id', 'data'],
      properties: {
        id: { type: 'integer' },
        type: { const: 'channel_folder' },
        op: { const: 'update' },
        channel_folder_id: { type: 'integer' },
        data: {
          type: 'object',
          additionalProperties: false,
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            rendered_description: { type: 'string' },
            is_archived: { type: 'boolean' },
          },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'type', 'op', 'order'],
      properties: {
        id: { type: 'integer' },
        type: { const: 'channel_folder' },
        op: { const: 'reorder' },
        order: { type: 'array', items: { type: 'integer' } },
      },
    },
  ],
});

function splitNewerEvents(body: Json): { rest: Json; errors: string[] } {
  if (!Array.isArray(body.events)) return { rest: body, errors: [] };
  const errors: string[] = [];
  const keep = (body.events as Json[]).filter((e) => {
    if (e.type !== 'channel_folder') return true;
    if (!NEWER_EVENTS(e))
      errors.push(`channel_folder event ${JSON.stringify(e)} has a wrong shape`);
    return false;
  });
  return { rest: { ...body, events: keep }, errors };
}

/** What validation found. */
export interface ValidationOutcome {
  /** The yaml template, or undefined when the yaml does not describe the endpoint. */
  readonly template: string | undefined;
  /** Whether a schema was applied. */
  readonly checked: boolean;
  /** ajv's errors, empty when valid. */
  readonly errors: string[];
}

/** Validates one response body for `method path` (path under /api/v1, no query). */
export function validateResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
): ValidationOutcome {
  const template = findTemplate(method, path);
  if (template === undefined) return { template, checked: false, errors: [] };
  const op = loadOpenApi().paths[template][method.toLowerCase()] as Json;
  const statusKey = String(status);
  const errors: string[] = [];
  const fmt = (v: ValidateFunction): string[] =>
    (v.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  if (status === 200) {
    const v = compiled(
      `${method} ${template} 200`,
      () =>
        op.responses?.['200']?.content?.['application/json']?.schema ??
        resolveSchema(op.responses?.['200'])?.content?.['application/json']?.schema,
    );
    if (!v) return { template, checked: false, errors };
    const { rest, errors: newer } = splitNewerEvents(body as Json);
    errors.push(...newer);
    if (!v(rest)) errors.push(...fmt(v));
    return { template, checked: true, errors };
  }
  if (!looseError(body)) return { template, checked: true, errors: fmt(looseError) };
  const b = stripServerOnlyErrorData(body as Json);
  const candidates: ValidateFunction[] = [];
  const own = compiled(
    `${method} ${template} ${statusKey}`,
    () => resolveSchema(op.responses?.[statusKey])?.content?.['application/json']?.schema,
  );
  if (own) candidates.push(own);
  if (status === 400) candidates.push(componentValidator('MissingArgumentError'));
  if (status === 429) candidates.push(componentValidator('RateLimitedError'));
  if (status === 401) candidates.push(componentValidator('CodedError'));
  if (candidates.length === 0) return { template, checked: true, errors: [] };
  if (candidates.some((v) => v(b))) return { template, checked: true, errors: [] };
  for (const v of candidates) errors.push(...fmt(v));
  return { template, checked: true, errors };
}
