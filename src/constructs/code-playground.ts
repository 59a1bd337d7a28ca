import type { Construct } from 'constructs';
import { playgroundKey } from '../model/address';
import { PlaygroundSchema } from '../model/desired-state';
import type { DesiredPlayground } from '../model/desired-state';
import type { PlaygroundProperty } from '../model/ignorable';
import { checkPlaygroundTemplate, checkPygmentsLanguage } from '../model/rules';
import { PlainResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/** Props of a {@link CodePlayground}. */
export interface CodePlaygroundProps extends ResourceOptions<PlaygroundProperty> {
  /** The name shown on code blocks, such as `Rust Playground`. */
  readonly name: string;
  /** The Pygments language of the code blocks it applies to, such as `rust` (at most 40 characters). */
  readonly pygmentsLanguage: string;
  /** An RFC 6570 URL template whose only variable is `code`, such as `https://play.rust-lang.org/?code={code}`. */
  readonly urlTemplate: string;
}

/**
 * A code playground: a link on code blocks of one language that opens the code in an
 * online tool. Identified by (language, name). `renamedFrom` takes earlier names in the same
 * language.
 *
 * @example
 * new CodePlayground(org, 'rust', {
 *   name: 'Rust Playground',
 *   pygmentsLanguage: 'rust',
 *   urlTemplate: 'https://play.rust-lang.org/?edition=2021&code={code}',
 * });
 */
export class CodePlayground extends PlainResource<CodePlaygroundProps, DesiredPlayground> {
  /** True when `x` is a {@link CodePlayground}. */
  public static readonly isCodePlayground = resourceGuard<CodePlayground>('playground');

  public constructor(scope: Construct, id: string, props: CodePlaygroundProps) {
    super(scope, id, 'playground', PlaygroundSchema, props);
  }

  /** `language/name`, the language's `\` and `/` escaped with a `\` (see {@link playgroundKey}). */
  public override get naturalKey(): string {
    return playgroundKey(this.props);
  }

  protected override renamedKey(old: string): string {
    return playgroundKey({ pygmentsLanguage: this.props.pygmentsLanguage, name: old });
  }

  protected override describeKey(): string {
    return `code playground '${this.props.name}' for language '${this.props.pygmentsLanguage}'`;
  }

  protected validateResource(): string[] {
    const p = this.props;
    const problems: string[] = [];
    if (p.name.trim() === '') problems.push('name is empty: give the playground a name');
    for (const [prop, value] of [
      ['name', p.name],
      ['pygmentsLanguage', p.pygmentsLanguage],
      ['urlTemplate', p.urlTemplate],
    ] as const) {
      if (value !== value.trim() && value.trim() !== '') {
        problems.push(
          `${prop} '${value}' has leading or trailing whitespace, which Zulip strips: remove it`,
        );
      }
    }
    if (p.pygmentsLanguage.trim() === '') {
      problems.push('pygmentsLanguage is empty: name the language, such as python');
    }
    const lang = checkPygmentsLanguage(p.pygmentsLanguage);
    if (lang) {
      problems.push(
        `pygmentsLanguage '${p.pygmentsLanguage}': ${lang}. Use a Pygments lexer name (letters, digits, space and _+-./#, at most 40 characters).`,
      );
    }
    const tpl = checkPlaygroundTemplate(p.urlTemplate);
    if (tpl) {
      problems.push(
        `urlTemplate '${p.urlTemplate}': ${tpl}. Write an RFC 6570 template with exactly one variable, {code}.`,
      );
    }
    return problems;
  }
}
