/**
 * Anonymous requests (`--anonymous-auth`, document 2 §Anonymous requests): a request no method claims is
 * `system:anonymous` in `system:unauthenticated` (the authentication filter applies it), unless anonymous access
 * is off (then it is 401). A request whose credentials a method rejected is never anonymous.
 */

/**
 * Whether anonymous access is on: `--anonymous-auth` (default true), forced off with the AlwaysAllow
 * authorization mode, as kube-apiserver does (with a warning) because that mode would let anyone do anything.
 */
export function anonymousAllowed(anonymousAuth: boolean, authorizationModes: readonly string[] = []): boolean {
  return anonymousAuth && !authorizationModes.includes('AlwaysAllow');
}
