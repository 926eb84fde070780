import type { Stack, TestToken } from './stack';

/**
 * A token of a new account whose meetings wait for a person at NAMING (speakerNamingMode FORCE_ON):
 * a wait stops there with no end. The token holds `scopes` and account:write (to set the mode).
 */
export async function tokenWhoseMeetingsWaitForNames(stack: Stack, scopes: string[]): Promise<TestToken> {
  const account = await stack.admin.account({ balanceMinutes: 20 });
  const token = await stack.admin.token(account.id, [...new Set([...scopes, 'account:write'])]);
  const res = await stack.api
    .patch('/api/v1/account/settings')
    .set('Authorization', `Bearer ${token.value}`)
    .send({ speakerNamingMode: 'FORCE_ON' });
  if (res.status !== 200) throw new Error(`speakerNamingMode FORCE_ON: ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}
