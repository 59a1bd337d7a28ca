/**
 * Linkifiers, code playgrounds and saved snippets: organization objects keyed by one string,
 * matched through `matchLive`.
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import { playgroundKey, resourceAddress } from '../../model/address';
import type { LiveLinkifier, LivePlayground, LiveSavedSnippet } from '../../model/live-state';
import type { PropertyChange } from '../plan-format';
import { SlotOrder, matchLive } from './keyed';
import type { Planner, Props } from './planner';
import { isIgnored, jsonEqual } from './planner';

export function planLinkifiers(p: Planner): void {
  const byPattern = new Map<string, LiveLinkifier>();
  for (const l of p.live.linkifiers) if (!byPattern.has(l.pattern)) byPattern.set(l.pattern, l);
  // Zulip strips both (zerver/actions/realm_linkifiers.py `do_add_linkifier`,
  // `do_update_linkifier`): compare and send what it will store.
  const linkifiers = p.desired.linkifiers.map((d) => ({
    ...d,
    pattern: d.pattern.trim(),
    urlTemplate: d.urlTemplate.trim(),
    ...(d.lifecycle?.renamedFrom
      ? {
          lifecycle: {
            ...d.lifecycle,
            renamedFrom: d.lifecycle.renamedFrom.map((f) => f.trim()),
          },
        }
      : {}),
  }));
  const declared = new Set(linkifiers.map((d) => d.pattern));
  const claimed = new Set<number>();
  const order = new SlotOrder('linkifier');
  for (const d of linkifiers) {
    const address = resourceAddress('linkifier', d.pattern);
    const base = { kind: 'linkifier' as const, address, key: d.pattern, path: d.path };
    const { live: l, renamed } = matchLive(
      'linkifier',
      d.pattern,
      d.lifecycle?.renamedFrom,
      byPattern,
      declared,
      (c) => claimed.has(c.id),
    );
    if (!l) {
      p.addCreate(base, { pattern: d.pattern, urlTemplate: d.urlTemplate });
      order.declare(d.pattern, null, d.lifecycle);
      continue;
    }
    claimed.add(l.id);
    order.declare(d.pattern, l.id, d.lifecycle);
    if (renamed) p.addRename(base, l.id, l.pattern, d.pattern);
    const props: PropertyChange[] = [];
    p.prop(props, d.lifecycle, 'urlTemplate', l.urlTemplate, d.urlTemplate);
    p.addUpdate(base, l.id, props);
  }
  for (const l of p.live.linkifiers) {
    if (claimed.has(l.id)) continue;
    const deleted = p.undeclared('linkifier', l.pattern, l.id, {
      pattern: l.pattern,
      urlTemplate: l.urlTemplate,
    });
    // Undeclared linkifiers that stay keep their slot: their place is their precedence.
    if (!deleted) order.keep(l.pattern, l.id);
  }
  // Zulip appends new linkifiers; the order after creates and deletes is live order + created.
  const reorder = order.reorder(
    p.live.linkifiers,
    p.live.linkifiers.map((l) => l.pattern),
    p.desired.organization.path,
  );
  if (reorder) p.add(reorder);
}

export function planPlaygrounds(p: Planner): void {
  const byKey = new Map<string, LivePlayground>();
  for (const l of p.live.playgrounds) byKey.set(playgroundKey(l), l);
  const declared = new Set(p.desired.playgrounds.map((d) => playgroundKey(d)));
  const claimed = new Set<number>();
  for (const d of p.desired.playgrounds) {
    const key = playgroundKey({
      pygmentsLanguage: d.pygmentsLanguage.trim(),
      name: d.name.trim(),
    });
    const address = resourceAddress('playground', key);
    const base = { kind: 'playground' as const, address, key, path: d.path };
    const after = {
      name: d.name.trim(),
      pygmentsLanguage: d.pygmentsLanguage.trim(),
      urlTemplate: d.urlTemplate.trim(),
    };
    const { live: l } = matchLive(
      'playground',
      key,
      d.lifecycle?.renamedFrom,
      byKey,
      declared,
      (c) => claimed.has(c.id),
    );
    if (!l) {
      p.addCreate(base, after);
      continue;
    }
    claimed.add(l.id);
    const before = {
      name: l.name,
      pygmentsLanguage: l.pygmentsLanguage,
      urlTemplate: l.urlTemplate,
    };
    const relevant = (o: typeof before): Props =>
      Object.fromEntries(Object.entries(o).filter(([p]) => !isIgnored(d.lifecycle, p)));
    if (jsonEqual(relevant(before), relevant(after))) continue;
    // Zulip has no PATCH for playgrounds: a change is a delete and a create.
    if (d.lifecycle?.protect) {
      p.protectedFinding(address, d.path, 'replace (delete and re-create)');
      continue;
    }
    p.add({
      ...base,
      id: `${address}#replace`,
      action: 'replace',
      dependsOn: [],
      liveId: l.id,
      before,
      after,
    });
  }
  for (const l of p.live.playgrounds) {
    if (claimed.has(l.id)) continue;
    p.undeclared('playground', playgroundKey(l), l.id, {
      name: l.name,
      pygmentsLanguage: l.pygmentsLanguage,
      urlTemplate: l.urlTemplate,
    });
  }
}

export function planSnippets(p: Planner): void {
  const byTitle = new Map<string, LiveSavedSnippet>();
  const sorted = [...p.live.savedSnippets].sort((a, b) => a.id - b.id);
  for (const l of sorted) {
    if (byTitle.has(l.title)) {
      p.warn(
        'DUPLICATE_SNIPPET',
        `several live snippets have this title; the oldest (id ${byTitle.get(l.title)?.id}) is the one managed`,
        resourceAddress('savedSnippet', l.title),
      );
      continue;
    }
    byTitle.set(l.title, l);
  }
  const declared = new Set(p.desired.savedSnippets.map((d) => d.title.trim()));
  const claimed = new Set<number>();
  for (const d of p.desired.savedSnippets) {
    const title = d.title.trim();
    const address = resourceAddress('savedSnippet', title);
    const base = { kind: 'savedSnippet' as const, address, key: title, path: d.path };
    const { live: l, renamed } = matchLive(
      'savedSnippet',
      title,
      d.lifecycle?.renamedFrom,
      byTitle,
      declared,
      (c) => claimed.has(c.id),
    );
    if (!l) {
      p.addCreate(base, { title, content: d.content });
      continue;
    }
    claimed.add(l.id);
    if (renamed) p.addRename(base, l.id, l.title, title);
    const props: PropertyChange[] = [];
    p.prop(props, d.lifecycle, 'content', l.content.trim(), d.content.trim());
    p.addUpdate(base, l.id, props);
  }
  for (const l of sorted) {
    if (claimed.has(l.id)) continue;
    // Duplicates get their id in the key so each has its own address.
    const key = byTitle.get(l.title)?.id === l.id ? l.title : `${l.title}#${l.id}`;
    p.undeclared('savedSnippet', key, l.id, { title: l.title, content: l.content });
  }
}
