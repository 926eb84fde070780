import { correctKeyterms, correctKeytermsInText, soundKey } from '../src/domain/keyterms';
import type { TimedWord } from '../src/domain/turns';

const words = (text: string): TimedWord[] =>
  text.split(' ').map((word, i) => ({ word, startMs: i * 500, endMs: i * 500 + 400, confidence: 0.9 }));
const text = (ws: TimedWord[]): string => ws.map((w) => w.word).join(' ');

describe('correctKeyterms', () => {
  it('re-cases an exact match with the capitals of the term', () => {
    expect(text(correctKeyterms(words('ask sara about it'), ['Sara']))).toBe('ask Sara about it');
  });

  it('pulls a near-miss spelling toward the term', () => {
    expect(text(correctKeyterms(words('ask sarah about it'), ['Sara']))).toBe('ask Sara about it');
  });

  it('merges a long term the decoder split into several words, spanning their times', () => {
    const out = correctKeyterms(words('we moved to cooper netties last week'), ['Kubernetes']);
    expect(text(out)).toBe('we moved to Kubernetes last week');
    const merged = out.find((w) => w.word === 'Kubernetes');
    expect(merged).toMatchObject({ startMs: 1500, endMs: 2400 });
  });

  it('corrects a multi-word term word by word', () => {
    expect(text(correctKeyterms(words('the project appollo launch'), ['Project Apollo']))).toBe(
      'the Project Apollo launch',
    );
  });

  it('leaves inflected forms and unrelated words alone', () => {
    expect(text(correctKeyterms(words('the releases are ready'), ['release']))).toBe('the releases are ready');
    expect(text(correctKeyterms(words('we sat in the sun'), ['Sara']))).toBe('we sat in the sun');
  });

  it('only re-cases very short terms, never fuzzily', () => {
    expect(text(correctKeyterms(words('the api and the app'), ['API']))).toBe('the API and the app');
  });

  it('changes nothing without keyterms', () => {
    const input = words('nothing to do here');
    expect(correctKeyterms(input, [])).toEqual(input);
  });

  it('works on plain text too', () => {
    expect(correctKeytermsInText('deploy on cooper netties today', ['Kubernetes'])).toBe('deploy on Kubernetes today');
  });
});

describe('soundKey', () => {
  it('gives voicing pairs and silent letters one key', () => {
    expect(soundKey('kubernetes')).toBe(soundKey('cooperneties'));
    expect(soundKey('phone')).toBe(soundKey('fone'));
  });
});
