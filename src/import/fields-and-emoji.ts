/**
 * The importer's steps for custom profile fields (the fields, and each user's values of them)
 * and custom emoji (with the image files they need): a base of {@link Importer} in
 * `generate.ts`, which runs them with the other kinds.
 */
import type { LiveUser } from '../model/live-state';
import {
  choiceDataOf,
  choiceTexts,
  externalAccountOf,
  isDefaultExternalAccount,
  profileFieldTypeName,
} from '../model/custom-profile-fields';
import { arr, propertyKey, raw, str } from './code';
import type { Entry, Expr } from './code';
import { ImportContext } from './context';
import { compareNames } from './layout';
import { constructIdFor } from './names';
import type { ImportAsset } from './options';

export abstract class FieldAndEmojiImporter extends ImportContext {
  /**
   * A user's custom profile field values, by the field's label, in the fields' order: a
   * choice by its text, a user field's people by e-mail (users this account cannot see, and
   * values of fields of an unknown type, are left out, and so left alone).
   */
  protected profileEntries(u: LiveUser): Entry[] {
    const out: Entry[] = [];
    for (const f of this.live.customProfileFields) {
      const raw = u.profileData?.[String(f.id)];
      if (raw === undefined || raw === '') continue;
      const type = profileFieldTypeName(f.type);
      if (type === undefined) continue;
      let value: Expr | undefined;
      if (type === 'choice') {
        const text = choiceDataOf(f.fieldData)[raw]?.text;
        value = text === undefined ? undefined : str(text);
      } else if (type === 'user') {
        const ids = parseIdList(raw);
        const users = ids?.map((id) => this.idx.usersById.get(id));
        value =
          users && users.every((x) => x?.isActive === true && !x.isBot)
            ? arr(users.map((x) => str(x?.email ?? '')).sort((a, b) => compareExprs(a, b)))
            : undefined;
      } else value = str(raw);
      if (value === undefined) {
        this.skip('user', u.email, `its value of '${f.name}' cannot be declared: left as it is`);
        continue;
      }
      out.push({ key: propertyKey(f.name), value });
    }
    return out;
  }

  /**
   * Custom profile fields, in Zulip's order, every property that is not Zulip's default. A
   * field of a type this version does not know is left out.
   */
  protected customProfileFields(): void {
    if (!this.include.has('customProfileFields')) return;
    for (const f of this.live.customProfileFields) {
      const type = profileFieldTypeName(f.type);
      if (type === undefined) {
        this.skip('customProfileField', f.name, `unknown field type ${f.type}: left as it is`);
        continue;
      }
      const external = type === 'external-account' ? externalAccountOf(f.fieldData) : undefined;
      const fixed = isDefaultExternalAccount(external?.subtype);
      const entries: Entry[] = [
        { key: 'name', value: str(f.name) },
        { key: 'type', value: str(type) },
      ];
      if (f.hint !== '' && !fixed) entries.push({ key: 'hint', value: str(f.hint) });
      if (type === 'choice')
        entries.push({
          key: 'choices',
          value: arr(choiceTexts(choiceDataOf(f.fieldData)).map(str)),
        });
      if (external) {
        const e: Entry[] = [{ key: 'subtype', value: str(external.subtype) }];
        if (external.urlPattern !== undefined && !fixed)
          e.push({ key: 'urlPattern', value: str(external.urlPattern) });
        entries.push({ key: 'externalAccount', value: { t: 'object', entries: e } });
      }
      if (f.displayInProfileSummary)
        entries.push({ key: 'displayInProfileSummary', value: raw('true') });
      if (f.required) entries.push({ key: 'required', value: raw('true') });
      if (!f.editableByUser) entries.push({ key: 'editableByUser', value: raw('false') });
      this.declareObject(
        'customProfileField',
        constructIdFor(f.name, 'profile-field', '-field'),
        entries,
      );
    }
  }

  protected readonly assets: ImportAsset[] = [];

  /**
   * Active custom emoji, each with its image in `emoji/` next to the code (the caller
   * downloads them: {@link GeneratedApp.assets}). Deactivated emoji are history (their names
   * are free again): not declared.
   */
  protected customEmoji(): void {
    if (!this.include.has('customEmoji')) return;
    const active = this.live.customEmoji
      .filter((e) => !e.deactivated)
      .sort((a, b) => compareNames(a.name, b.name));
    for (const e of active) {
      if (e.image === null) {
        this.skip('customEmoji', e.name, 'its image could not be read from the organization');
        continue;
      }
      const ext = /\.(png|gif|jpe?g|webp|avif)$/i.exec(e.sourceUrl)?.[0].toLowerCase() ?? '.png';
      const file = `emoji/${e.name}${ext}`;
      this.assets.push({ file, url: `${e.sourceUrl}.original`, sha256: e.image.sha256 });
      this.declareObject('customEmoji', constructIdFor(e.name, 'emoji', '-emoji'), [
        { key: 'name', value: str(e.name) },
        // Emoji names are [0-9a-z_-]: safe in a template literal.
        { key: 'image', value: raw(`\`\${__dirname}/${file}\``) },
      ]);
    }
  }
}

/** A JSON list of user IDs, as Zulip stores a user field's value; undefined when it is not one. */
function parseIdList(raw: string): number[] | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? (v as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/** String literals by their text. */
function compareExprs(a: Expr, b: Expr): number {
  return compareNames(a.t === 'str' ? a.value : '', b.t === 'str' ? b.value : '');
}
