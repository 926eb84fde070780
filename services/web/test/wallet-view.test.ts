import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { speechOf } from '../src/i18n/messages';
import { WalletView } from '../src/views/account.views';

/** The wallet's ledger lines read as they move the balance: a hold and a charge are not two charges. */
describe('the wallet page', () => {
  const at = '2026-11-29T10:00:00Z';
  const entries = [
    { kind: 'release', creditKind: null, minutes: 2, createdAt: at },
    { kind: 'capture', creditKind: null, minutes: 3, createdAt: at },
    { kind: 'hold', creditKind: null, minutes: 3, createdAt: at },
    { kind: 'credit', creditKind: 'purchase', minutes: 300, createdAt: at },
    { kind: 'credit', creditKind: 'grant', minutes: 60, createdAt: at },
  ];
  const render = (purchasePacks: number[], list = entries) =>
    renderToString(
      h(WalletView, {
        s: speechOf('en'),
        base: '/app',
        viewer: { signedIn: true, displayName: null, csrf: 'c' },
        w: { balanceMinutes: 357, heldMinutes: 0, entries: list, purchasePacks },
        purchaseKey: 'k'.repeat(36),
      }),
    );

  it('signs credits and charges, brackets holds and releases, and names where each credit came from', () => {
    const cells = [...render([]).matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]);
    expect(cells).toEqual([
      ['Hold released', '(2)'],
      ['Meeting charged', '\u22123'],
      ['Meeting held', '(3)'],
      ['Minutes bought', '+300'],
      ['Minutes granted', '+60'],
    ]);
    expect(render([])).toContain('Minutes in brackets are set aside');
    expect(render([], entries.slice(3))).not.toContain('Minutes in brackets are set aside');
  });

  it('offers the packs on sale, or says the operator adds minutes', () => {
    const selling = render([60, 300]);
    expect(selling).toContain('name="purchaseKey"');
    expect(selling.match(/type="radio"/g)).toHaveLength(2);
    const none = render([]);
    expect(none).not.toContain('name="purchaseKey"');
    expect(none).toContain('Minutes are added by the people who run this service');
  });
});
