/**
 * Bootstrap token authentication (`--enable-bootstrap-token-auth`, kube's bootstrap token authenticator,
 * document 2 §Bootstrap tokens): `<id>.<secret>` tokens backed by Secrets `bootstrap-token-<id>` of type
 * `bootstrap.svc.io/token` in the system namespace, allowed for authentication, unexpired and not being deleted.
 * The user is `system:bootstrap:<id>` in `system:bootstrappers` plus the Secret's `auth-extra-groups`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Names } from '@svc-apiserver/api';
import type { TokenAuthenticator } from './authenticator.js';
import { isDeleting, secretValue, type ObjectGetter } from './object-getter.js';

const tokenRe = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const extraGroupRe = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** Compares two secrets in time independent of where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The bootstrap token authenticator, reading Secrets through `get`. `now` is for tests. */
export function bootstrapTokenAuthenticator(names: Names, get: ObjectGetter, now: () => number = Date.now): TokenAuthenticator {
  const secretType = names.domain('token', 'bootstrap');
  const namespace = names.name('systemNamespace');
  return {
    name: 'bootstrap-token',
    async authenticateToken(token) {
      const m = tokenRe.exec(token);
      if (!m) return { kind: 'none' };
      const [, id, secret] = m as unknown as [string, string, string];
      const stored = await get('secrets', namespace, `bootstrap-token-${id}`);
      // Every failure below is "not a token of this method": the request is then 401 without saying why.
      if (stored === undefined || isDeleting(stored)) return { kind: 'none' };
      if ((stored as { type?: unknown }).type !== secretType) return { kind: 'none' };
      const storedId = secretValue(stored, 'token-id');
      const storedSecret = secretValue(stored, 'token-secret') ?? '';
      if (storedId !== id || !sameSecret(storedSecret, secret)) return { kind: 'none' };
      const expiration = secretValue(stored, 'expiration');
      if (expiration !== undefined) {
        const at = Date.parse(expiration);
        if (Number.isNaN(at) || at <= now()) return { kind: 'none' };
      }
      if (secretValue(stored, 'usage-bootstrap-authentication') !== 'true') return { kind: 'none' };
      const groups = ['system:bootstrappers'];
      const extra = secretValue(stored, 'auth-extra-groups');
      if (extra !== undefined && extra.trim() !== '') {
        for (const g of extra.split(',').map((s) => s.trim())) {
          if (!extraGroupRe.test(g)) return { kind: 'error', message: `bootstrap token ${id} has an invalid auth-extra-groups entry` };
          if (!groups.includes(g)) groups.push(g);
        }
      }
      return { kind: 'user', method: 'bootstrap-token', user: { username: `system:bootstrap:${id}`, groups } };
    },
  };
}
