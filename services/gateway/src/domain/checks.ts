import { SCOPE_SWITCH, type ErrorCode, type Scope, type Switch } from '@mm/contract';
import { RATE_LIMITED_MESSAGE } from '@mm/platform';

/** What the gateway knows of a token at the moment of a request. */
export interface TokenState {
  tokenId: string;
  scopes: readonly Scope[];
  expiresAt: Date | null;
  revoked: boolean;
  account: {
    developerMode: boolean;
    approved: boolean;
    switches: Record<Switch, boolean>;
  };
}

export type CheckStep = 'authenticate' | 'authorize';

/**
 * The token checks of the contract, in the contract's order, except the rate limit, which sits
 * between the two halves (it needs a valid token and counts only such requests):
 * TOKENS_DISABLED, TOKEN_INVALID, DEVELOPER_MODE_OFF | rate limit | TOKEN_SCOPE, SCOPE_DISABLED, PENDING_APPROVAL.
 */
export function authenticate(token: TokenState | null, tokensDisabled: boolean, now: Date): ErrorCode | null {
  if (tokensDisabled) return 'TOKENS_DISABLED';
  if (!token || token.revoked || (token.expiresAt && token.expiresAt <= now)) return 'TOKEN_INVALID';
  if (!token.account.developerMode) return 'DEVELOPER_MODE_OFF';
  return null;
}

/** Scope, rollout switch and approval checks for a route admitting any one of `routeScopes`. */
export function authorize(token: TokenState, routeScopes: readonly Scope[] | 'any'): ErrorCode | null {
  if (routeScopes !== 'any') {
    const held = routeScopes.filter((s) => token.scopes.includes(s));
    if (held.length === 0) return 'TOKEN_SCOPE';
    const open = held.some((s) => {
      const sw = SCOPE_SWITCH[s];
      return !sw || token.account.switches[sw];
    });
    if (!open) return 'SCOPE_DISABLED';
  }
  if (!token.account.approved) return 'PENDING_APPROVAL';
  return null;
}

/** Human messages for the check codes; the code is the contract, the message may change. */
export const CHECK_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: 'Send Authorization: Bearer <token>.',
  TOKEN_NOT_ACCEPTED: 'This route does not take API tokens.',
  TOKENS_DISABLED: 'API tokens are switched off for now; your token is kept. Try later.',
  TOKEN_INVALID: 'The token is unknown, revoked or expired.',
  DEVELOPER_MODE_OFF: 'Developer mode is off for this account.',
  RATE_LIMITED: RATE_LIMITED_MESSAGE,
  TOKEN_SCOPE: 'The token lacks every scope this route needs.',
  SCOPE_DISABLED: 'This access is switched off for the account for now.',
  PENDING_APPROVAL: 'The account still awaits approval.',
  TOKEN_REQUIRED: 'Call whoami with an API token, not a signed-in browser session.',
};
