/** Each connection's reply inbox: `_INBOX_<user>`, so that no user can read another's replies. */
export const inboxPrefix = (user: string) => `_INBOX_${user}`;

/** A stream's name inside a namespace (`t1a2b.` + `PIPELINE` → `t1a2b_PIPELINE`). */
export function streamName(namespace: string, name: string): string {
  return namespace ? `${namespace.replace(/\W/g, '_')}${name}` : name;
}
