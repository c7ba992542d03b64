// A minimal stand-in for pixi.js in unit tests (Vitest runs in node, without WebGL): nodes
// with the fields the client reads, Graphics whose drawing calls chain and do nothing.
// Used as `vi.mock("pixi.js", () => import("./pixi-stub"))`.
class Node {
  children: Node[] = [];
  parent: Node | null = null;
  x = 0; y = 0; alpha = 1; visible = true; mask: unknown = null; width = 0; height = 0; filters: unknown[] = [];
  scale = { x: 1, y: 1, set(v: number) { this.x = this.y = v; } };
  position = { set: (x: number, y: number) => { this.x = x; this.y = y; } };
  anchor = { set() {} };
  texture: { id: string; width: number } = { id: "", width: 1 };
  addChild(...c: Node[]) { for (const n of c) { n.parent = this; this.children.push(n); } return c[0]; }
  removeChildren() { const c = this.children; this.children = []; return c; }
  emit() { return true; }
  on() { return this; }
  destroyed = false;
  destroy() { this.destroyed = true; if (this.parent) this.parent.children = this.parent.children.filter((n) => n !== this); }
}
class Graphics extends Node {
  [k: string]: unknown;
  constructor() {
    super();
    const proxy: Graphics = new Proxy(this, { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : () => proxy) });
    return proxy;
  }
}
class BlurFilter {}
export { Node as Container, Node as Sprite, Graphics, Node as Text, BlurFilter };
