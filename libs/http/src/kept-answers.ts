/**
 * Answers the gateway may keep and give again without asking the owning service (whoami's, for
 * now), and the Redis keys that prove them still true. docs/decisions.md, "whoami answered at the
 * gateway".
 *
 * The owning service marks an answer keepable with KEPT_UNTIL_HEADER (epoch milliseconds: the
 * latest moment its figures can hold by time alone). The gateway keeps it under the wallet version
 * it read before asking, and gives it again only while that version is still the one in Redis and
 * the moment has not passed. The account service sets a new version (a random value, never a
 * counter: a Redis that restarts empty cannot bring an old one back) after every ledger commit,
 * before the write is answered, so a write's author never reads an answer older than the write.
 */
export const KEPT_UNTIL_HEADER = 'x-mm-kept-until';

/** Redis key of one account's wallet version (under each stack's key prefix). */
export function walletVersionKey(accountId: string): string {
  return `mm:wallet:${accountId}`;
}

/**
 * Sent by the gateway with a request whose answer it would keep: the wallet version it read. The
 * owning service marks its answer keepable only when its own Redis shows the same version (the
 * same Redis as the gateway's, under the same prefix: a misconfigured one can only cost keeping).
 */
export const WALLET_VERSION_HEADER = 'x-mm-wallet-version';

/** Redis key changed when any account's wallet may have changed (a ledger statement touching many). */
export const WALLETS_VERSION_KEY = 'mm:wallet:*';

/** The version the gateway reads (its gate script joins the two keys the same way). */
export function walletVersionOf(account: string, all: string): string {
  return `${account}/${all}`;
}

/** How long a wallet version lives unread or unchanged; a key that expired is set anew, which only costs a miss. */
export const WALLET_VERSION_TTL_SECONDS = 86_400;

/** The longest the gateway keeps an answer whatever it says: the bound on a version change that was lost. */
export const KEPT_ANSWER_MAX_AGE_MS = 10_000;
