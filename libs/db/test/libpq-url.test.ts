import { libpqUrl } from '../src/database';

describe('libpqUrl: sslmode as libpq reads it', () => {
  it('marks the modes node-postgres 8 would read as verify-full', () => {
    for (const mode of ['prefer', 'require', 'verify-ca'])
      expect(libpqUrl(`postgres://a:p@h:5432/db?sslmode=${mode}`)).toBe(
        `postgres://a:p@h:5432/db?sslmode=${mode}&uselibpqcompat=true`,
      );
    expect(libpqUrl('postgres://a:p@h/db?application_name=x&sslmode=require&connect_timeout=5')).toBe(
      'postgres://a:p@h/db?application_name=x&sslmode=require&connect_timeout=5&uselibpqcompat=true',
    );
  });

  it('leaves other URLs as they are', () => {
    for (const url of [
      'postgres://a:p@h/db',
      'postgres://a:p@h/db?sslmode=disable',
      'postgres://a:p@h/db?sslmode=verify-full&sslrootcert=/ca.pem',
      'postgres://a:p@h/db?sslmode=require&uselibpqcompat=true',
      'postgres://a:p@h/db?application_name=require',
    ])
      expect(libpqUrl(url)).toBe(url);
  });

  it('reads past a trailing newline and a fragment, as pg-connection-string does', () => {
    const withNewline = libpqUrl('postgres://a:p@h:5432/db?sslmode=require\n');
    expect(withNewline).toBe('postgres://a:p@h:5432/db?sslmode=require&uselibpqcompat=true');
    expect(libpqUrl('postgres://a:p@h/db?sslmode=require#x')).toBe(
      'postgres://a:p@h/db?sslmode=require&uselibpqcompat=true#x',
    );
  });
});
