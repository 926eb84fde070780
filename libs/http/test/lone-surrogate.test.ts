import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { finishApp, jsonBody, loneSurrogateAt } from '../src';

/** JSON text that escapes half a surrogate pair is no text: refused, never stored as U+FFFD. */
describe('JSON bodies: lone surrogates', () => {
  it('finds the first string or key holding half a pair, by its path', () => {
    expect(loneSurrogateAt({ name: 'Board \u{1F600}', items: ['a', 'b'] }, '')).toBeNull();
    expect(loneSurrogateAt({ name: 'Board \ud800' }, '')).toBe('name');
    expect(loneSurrogateAt({ name: '\udc00x' }, '')).toBe('name');
    expect(loneSurrogateAt({ keyterms: ['ok', 'x\ud83d'] }, '')).toBe('keyterms[1]');
    expect(loneSurrogateAt({ names: { '\ud800': 'Sara' } }, '')).toBe('names.\ud800');
    expect(loneSurrogateAt('\ud800', '')).toBe('');
    expect(loneSurrogateAt([1, null, true], '')).toBeNull();
  });

  it('answers 400 VALIDATION naming the field, and takes a whole pair', async () => {
    const app = express();
    app.use(jsonBody('16kb'));
    app.post('/echo', (req, res) => res.json(req.body));
    finishApp(app, pino({ level: 'silent' }));
    const send = (raw: string) => request(app).post('/echo').set('content-type', 'application/json').send(raw);
    const lone = await send('{"name":"Board \\ud800"}');
    expect([lone.status, lone.body.error?.code]).toEqual([400, 'VALIDATION']);
    expect(lone.body.error.message).toMatch(/^name: text must be Unicode characters/);
    const pair = await send('{"name":"Board \\ud83d\\ude00"}');
    expect([pair.status, pair.body]).toEqual([200, { name: 'Board \u{1F600}' }]);
  });
});
