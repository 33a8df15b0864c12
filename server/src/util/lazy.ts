// A value made on its first use, not when its module is evaluated: what a module holds at its top
// level is made at start-up, before the first diagnostics, whether used or not (a bounded cache
// allocates its slots when constructed).

export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
