// A shallow copy of an object, as `{ ...value }` makes it (its own enumerable members, in their
// order), made by Object.assign. On Node 20 the copies a spread makes in a hot path survived the
// young generation's collections: the dry run's template views (runner/execute/contents.ts), built
// with a spread, were ~10 kB of every /validate request (30 pipes) left to be copied and promoted,
// none with Object.assign (sampling heap profiler, survivors of minor collections only; with
// --trace-gc-nvp, one connection: promoted 14.5 → 8.8 kB and copied 21.6 → 15.9 kB per request).
// An own `__proto__` member (JSON.parse makes one) would set the copy's prototype when assigned:
// such a value keeps the spread.

const hasOwn = Object.prototype.hasOwnProperty;

export function plainCopy<T extends object>(value: T): T {
  return hasOwn.call(value, '__proto__') ? { ...value } : Object.assign({}, value);
}
