import { describe, expect, it } from 'vitest';
import { maskSecrets } from './secrets.js';

describe('maskSecrets', () => {
  const cases: Array<[string, string]> = [
    ['openai', 'my key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z ok'],
    ['anthropic', 'export ANTHROPIC=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['github', 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 here'],
    ['github pat', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123'],
    ['aws id', 'AKIAIOSFODNN7EXAMPLE is the id'],
    ['slack', 'xoxb-123456789012-abcdefghijkl'],
    ['google', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
    ['bearer', 'curl -H "Authorization: Bearer abc.def-ghi_jkl012345"'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['url password', 'postgres://admin:hunter2hunter2@db.example.com/app'],
  ];
  for (const [what, text] of cases) {
    it(`masks ${what}`, () => {
      const out = maskSecrets(text);
      expect(out).toContain('[secret]');
      const secret = /(sk-[\w-]+|ghp_\w+|github_pat_\w+|AKIA\w+|xoxb-[\w-]+|AIza[\w-]+|abc\.def-ghi_jkl012345|eyJ[\w.-]+|hunter2hunter2)/.exec(text)?.[1] as string;
      expect(out).not.toContain(secret);
    });
  }

  it('masks a private-key block whole, even unterminated', () => {
    const block = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';
    expect(maskSecrets(`key:\n${block}\nafter`)).toBe('key:\n[secret]\nafter');
    expect(maskSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA')).toBe('[secret]');
  });

  it('masks the value of a secret-sounding assignment, keeps the name', () => {
    expect(maskSecrets('API_KEY=abcd1234efgh5678')).toBe('API_KEY=[secret]');
    expect(maskSecrets('"password": "correct horse"')).toBe('"password": "correct horse"'); // a value with a space is prose
    expect(maskSecrets('"db_password": "Tr0ub4dor&3x"')).toBe('"db_password": "[secret]"');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Fixed the token refresh in src/auth/token.ts; npm test passes (42 tests). sk-short';
    expect(maskSecrets(text)).toBe(text);
  });
});
