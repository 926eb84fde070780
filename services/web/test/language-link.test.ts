import { withLanguage } from '../src/domain/language-link';

describe('the language link of a signed-out page', () => {
  it.each([
    ['/app/sign-in', '/app/sign-in?lang=en'],
    ['/app/sign-in?lang=fa', '/app/sign-in?lang=en'],
    ['/app/sign-in?lang=fa&next=%2Fapp%2Fmeetings', '/app/sign-in?lang=en&next=%2Fapp%2Fmeetings'],
    ['/app/sign-in?next=%2Fapp%2Fmeetings&lang=fa', '/app/sign-in?next=%2Fapp%2Fmeetings&lang=en'],
    ['/app/s/abc_DEF-1?lang=fa', '/app/s/abc_DEF-1?lang=en'],
  ])('%s in English is %s', (here, english) => {
    expect(withLanguage(here, 'en')).toBe(english);
  });

  it('sets the language once, whatever the page was asked with', () => {
    expect(withLanguage('/app/reset?lang=en&lang=fa', 'fa')).toBe('/app/reset?lang=fa');
  });
});
