import { fillText } from '../src/i18n/messages';

describe('fillText: placeholders filled, a count of one said in the singular', () => {
  it('fills placeholders and leaves an unknown one as it is', () => {
    expect(fillText('{minutes} minutes and {x}', { minutes: '3' })).toBe('3 minutes and {x}');
  });

  it('says 1 minute and 1 meeting, never 11, 21 or 0.1 in the singular', () => {
    expect(fillText('Each question costs {minutes} minutes from your balance.', { minutes: '1' })).toBe(
      'Each question costs 1 minute from your balance.',
    );
    expect(fillText('Price: {m} minutes · reads {c} meetings', { m: '1', c: '1' })).toBe(
      'Price: 1 minute · reads 1 meeting',
    );
    expect(fillText('{m} minutes', { m: '11' })).toBe('11 minutes');
    expect(fillText('{m} minutes', { m: '21' })).toBe('21 minutes');
    expect(fillText('{m} minutes', { m: '1,001' })).toBe('1,001 minutes');
    expect(fillText('({m} minutes)', { m: '1' })).toBe('(1 minute)');
  });

  it('leaves Persian as it is', () => {
    expect(fillText('{minutes} دقیقه', { minutes: '۱' })).toBe('۱ دقیقه');
  });
});
