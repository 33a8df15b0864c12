// A cache of values computed from an object, kept on the object itself (a hidden property) rather
// than in a WeakMap. On Node 20 the young-generation collector keeps every WeakMap entry whose key
// is young alive (the map is old, its entries count as roots until the next full collection), so a
// WeakMap keyed by objects made on each keystroke (bundles, trees, tables of the edited version)
// made every dead version survive each scavenge and be promoted: measured on a 2,000-line bundle,
// ~3 MB copied or promoted per scavenge and a full collection every ~18 keystrokes. A hidden
// property dies with its object. Keys that cannot take a property (frozen) fall back to a WeakMap.
// One cache per module (each adds one property name to its keys' shapes): never one per key.

export class ObjectCache<K extends object, V> {
  private readonly slot: symbol;
  private fallback: WeakMap<K, V> | undefined;

  constructor(name: string) {
    this.slot = Symbol(name);
  }

  get(key: K): V | undefined {
    const own = (key as Record<symbol, V | undefined>)[this.slot];
    return own !== undefined ? own : this.fallback?.get(key);
  }

  has(key: K): boolean {
    return Object.prototype.hasOwnProperty.call(key, this.slot) || this.fallback?.has(key) === true;
  }

  set(key: K, value: V): this {
    if (Object.prototype.hasOwnProperty.call(key, this.slot)) (key as Record<symbol, V>)[this.slot] = value;
    else if (Object.isExtensible(key)) Object.defineProperty(key, this.slot, { value, writable: true, configurable: true, enumerable: false });
    else (this.fallback ??= new WeakMap()).set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (Object.prototype.hasOwnProperty.call(key, this.slot)) return delete (key as Record<symbol, V>)[this.slot];
    return this.fallback?.delete(key) === true;
  }
}
