/** The authenticated identity of a request (user.Info), as authentication hands it to authorization, admission and audit. */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The identity of a request nobody authenticated. */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
