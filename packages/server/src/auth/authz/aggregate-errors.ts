/** Error lists joined as kube-apiserver prints them (Go's utilerrors.NewAggregate). */

/** One message as is, several as `[a, b]` (a repeated message once); undefined for none. */
export function aggregateErrors(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages.filter((m) => m !== ''))];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
