import { describe, expect, test } from 'bun:test';
import { browserLogin, newState } from '../../../src/registry-client/login.ts';

describe('browser login', () => {
  test('state is 32 characters of [A-Za-z0-9_-], fresh each time', () => {
    const a = newState();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newState()).not.toBe(a);
  });

  test('gives up after its timeout with a fix, and stops listening', async () => {
    let callback = '';
    const started = browserLogin('http://127.0.0.1:9', {
      show(url) {
        callback = decodeURIComponent(new URL(url).searchParams.get('redirect_uri')!).replace('localhost', '127.0.0.1');
      },
      timeoutMs: 150,
    });
    await expect(started).rejects.toMatchObject({ code: 'login-timeout', fix: expect.stringContaining('--token') });
    await Bun.sleep(400);
    await expect(fetch(callback)).rejects.toThrow();
  });

  test('an error from the registry ends the login with its description', async () => {
    const started = browserLogin('http://127.0.0.1:9', {
      async show(url) {
        const cb = decodeURIComponent(new URL(url).searchParams.get('redirect_uri')!).replace('localhost', '127.0.0.1');
        const res = await fetch(`${cb}?error=access_denied&error_description=${encodeURIComponent('user said no')}`, {
          redirect: 'manual',
        });
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('http://127.0.0.1:9/cli/error?message=user%20said%20no');
      },
    });
    await expect(started).rejects.toMatchObject({ code: 'login-failed', message: 'login failed: user said no' });
  });
});
