import { browserLocale } from '@mm/http';
import { formRefusalPage } from '../src/domain/form-refusal-page';

describe("the app door's page for a refused form", () => {
  it("speaks the browser's first choice among the app's languages (the app's own rule, libs/http)", () => {
    expect(browserLocale('fa-IR,fa;q=0.9,en;q=0.8')).toBe('fa');
    expect(browserLocale('de-DE,fa;q=0.9')).toBe('fa');
    expect(browserLocale('en-US,fa;q=0.9')).toBe('en');
    expect(browserLocale('fr')).toBe('en');
    expect(browserLocale(undefined)).toBe('en');
  });

  it('says why and what to do, in the app’s look, with a way back and no script', () => {
    const en = formRefusalPage('stale', 'en', '/app');
    expect(en).toContain('<html lang="en" dir="ltr">');
    expect(en).toContain('<link rel="stylesheet" href="/app/assets/app.css">');
    expect(en).toContain('<p role="alert">The form is out of date');
    expect(en).toContain('Go back, reload the page and try again.');
    expect(en).toContain('<a href="/app/">Back to the app</a>');
    expect(en).not.toMatch(/<script|javascript:/i);
    const fa = formRefusalPage('origin', 'fa', '/app');
    expect(fa).toContain('<html lang="fa" dir="rtl">');
    expect(fa).toContain('این درخواست از خود برنامه نیامده است.');
    // An app at the root of its host: its links start at '/', never '//' (another host).
    const root = formRefusalPage('unreadable', 'en', '');
    expect(root).toContain('href="/assets/app.css"');
    expect(root).toContain('<a href="/">');
    expect(root).not.toContain('"//');
  });
});
