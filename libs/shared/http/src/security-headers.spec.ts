import { SECURITY_HEADERS, setSecurityHeaders } from './security-headers';

const headersOf = (kind?: 'api' | 'webConsole' | 'swaggerUi') => {
  const set = new Map<string, string>();
  setSecurityHeaders({ setHeader: (name: string, value: string | number | readonly string[]) => set.set(name.toLowerCase(), String(value)) } as never, kind);
  return set;
};

describe('security headers', () => {
  it('forbid framing and sniffing and send no referrer, on every kind of answer', () => {
    for (const kind of ['api', 'webConsole', 'swaggerUi'] as const) {
      const headers = headersOf(kind);
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.has('strict-transport-security')).toBe(false);
    }
  });

  it('give the APIs a policy that loads nothing', () => {
    expect(headersOf().get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('let no page run an inline script: only its own scripts', () => {
    for (const kind of ['webConsole', 'swaggerUi'] as const) {
      const policy = headersOf(kind).get('content-security-policy') ?? '';
      expect(policy).toMatch(/(^|;)script-src 'self'(;|$)/);
    }
    expect(headersOf('webConsole').get('content-security-policy')).not.toContain('unsafe');
    expect(SECURITY_HEADERS.api.length).toBeGreaterThan(5);
  });
});
