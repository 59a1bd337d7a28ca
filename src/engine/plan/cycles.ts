/**
 * The cycles of a graph of waits: its strongly connected components of more than one node
 * (Tarjan's algorithm, iterative), each in the order its nodes were first reached. Edges to
 * nodes outside the graph are ignored. Used where Zulip checks a rule at each request, so that
 * changes which must each go before another are a plan error, not an order broken at random.
 */
export function cyclesOf(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edges: Iterator<string> }[] = [];
    const enter = (node: string): void => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? [])[Symbol.iterator]() });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const step = top.edges.next();
      if (!step.done) {
        const to = step.value;
        if (!graph.has(to)) continue;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      for (;;) {
        const n = stack.pop()!;
        onStack.delete(n);
        component.push(n);
        if (n === top.node) break;
      }
      if (component.length > 1) out.push(component.reverse());
    }
  }
  return out;
}
