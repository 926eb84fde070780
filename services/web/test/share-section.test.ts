import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { speechOf } from '../src/i18n/messages';
import { ShareSection } from '../src/views/share.view';

/** A share link can include the audio only while the meeting keeps it (the app's delete-audio setting). */
describe("a meeting's share section", () => {
  const render = (audioKept: boolean) =>
    renderToString(
      h(ShareSection, {
        s: speechOf('en'),
        viewer: { signedIn: true, displayName: null, csrf: 'c' },
        action: '/app/recordings/rec_1',
        links: [],
        audioKept,
      }),
    );

  it('offers the audio while the meeting keeps it', () => {
    expect(render(true)).toContain('Include the audio');
  });

  it('does not offer audio the meeting no longer has', () => {
    const html = render(false);
    expect(html).not.toContain('Include the audio');
    expect(html).not.toContain('name="audio"');
    expect(html).toContain('name="expiry"');
  });
});
