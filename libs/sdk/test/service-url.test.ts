import { redactUrl, serviceUrlProblem } from '../src/domain/service-url';
import { MmTransportError, transportCause } from '../src/errors';

describe('serviceUrlProblem', () => {
  it('takes http and https URLs, with or without the API root', () => {
    expect(serviceUrlProblem('http://127.0.0.1:8080')).toBeNull();
    expect(serviceUrlProblem('https://mm.example.com/api/v1')).toBeNull();
  });

  it('says what is wrong with anything else', () => {
    expect(serviceUrlProblem('not-a-url')).toBe('is not a URL: "not-a-url"');
    expect(serviceUrlProblem('ftp://host')).toBe('is not an http or https URL: "ftp://host"');
  });

  it('refuses a user name or password, a query or a fragment, never repeating a secret', () => {
    expect(serviceUrlProblem('http://user:s3cret@127.0.0.1:8080')).toBe(
      'must not hold a user name or password (the token is the only credential): "http://***@127.0.0.1:8080"',
    );
    expect(serviceUrlProblem('http://user@h')).toMatch(/^must not hold a user name or password/);
    expect(serviceUrlProblem('http://h:8080/?token=svc_x')).toBe('must not hold a query string: "http://h:8080/?…"');
    expect(serviceUrlProblem('http://h:8080/#top')).toMatch(/^must not hold a fragment/);
    expect(serviceUrlProblem('http://user:s3cret@h:99999')).not.toContain('s3cret');
  });
});

describe('redactUrl', () => {
  it('hides the user part, and what a query or fragment holds, parseable or not', () => {
    expect(redactUrl('https://a:b@h/x?y=1#z')).toBe('https://***@h/x?…#…');
    expect(redactUrl('http://u:p@@host:1/path')).toBe('http://***@host:1/path');
    expect(redactUrl('http://h/a@b')).toBe('http://h/a@b');
    expect(redactUrl('not a url:pw@x')).toBe('***@x');
  });
});

describe('transportCause', () => {
  it("reads the network's reason under fetch's wrapping, and under an AggregateError", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(
      transportCause(new MmTransportError('request failed', new TypeError('fetch failed', { cause: refused }))),
    ).toEqual({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' });
    const every = Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' });
    expect(transportCause(new TypeError('fetch failed', { cause: every }))).toEqual({
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    const named = Object.assign(new Error('getaddrinfo failed'), { code: 'ENOTFOUND' });
    expect(transportCause(new MmTransportError('request failed', named)).message).toBe('ENOTFOUND getaddrinfo failed');
    expect(transportCause(new MmTransportError('request failed', undefined))).toEqual({ message: 'request failed' });
  });
});
