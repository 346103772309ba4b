/**
 * Members of decoded JSON objects named by clients, `__proto__` among them. JSON.parse makes every member an own
 * data property, `__proto__` too; a plain assignment `o[k] = v` with `k` `__proto__` would instead set the object's
 * prototype and drop the member, and a read `o[k]` of a member the object lacks would find `Object.prototype`.
 * Code that copies or merges client objects key by key sets and reads members through these.
 */

/** Sets `key` on `target` as JSON.parse does: an own, enumerable data property. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** The own member `key` of `source`, or undefined when it has none (never an inherited property). */
export function ownValue(source: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}
