// Tarjan's strongly connected components of a directed graph, iterative (a long chain of
// nodes cannot overflow the call stack). Used to group functions that call each other in a
// cycle, which must live in one module (ajv/shared-functions.ts).

/**
 * The components of the graph over `nodes` (`next` gives a node's successors among them), each
 * in the order of `nodes`, and every component after the components it reaches.
 */
export function stronglyConnected(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  const order = new Map(nodes.map((node, at) => [node, at]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; next: string[] }[] = [];
    const open = (node: string): void => {
      index.set(node, index.size);
      low.set(node, index.get(node) as number);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...next(node)] });
    };
    open(root);
    while (work.length > 0) {
      const frame = work.at(-1) as { node: string; next: string[] };
      const successor = frame.next.shift();
      if (successor !== undefined) {
        if (!index.has(successor)) open(successor);
        else if (onStack.has(successor)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(successor) as number));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
        onStack.delete(node);
        component.push(node);
        if (node === frame.node) break;
      }
      out.push(component.sort((a, b) => (order.get(a) as number) - (order.get(b) as number)));
    }
  }
  return out;
}
