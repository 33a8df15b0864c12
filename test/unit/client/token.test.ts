// The runner token: kept in SecretStorage, added to the server's `workspace/configuration` answer
// by the client's middleware, never written to settings.

import { beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));
import { FakeSecretStorage, resetFakes, window } from './fakeVscode.js';
import type * as vscode from 'vscode';
import { configurationMiddleware, injectToken, promptForToken, TOKEN_SECRET_KEY, TokenStore } from '../../../client/src/token.js';

const CANCEL = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;

describe('injectToken', () => {
  it('adds the token where the server reads it, without touching the settings objects', () => {
    const settings = Object.freeze({ runner: Object.freeze({ url: 'https://r', tokenEnv: 'T' }), format: { enable: true } });
    const [whole, runner, leaf, other] = injectToken([{ section: 'mthds' }, { section: 'mthds.runner' }, { section: 'mthds.runner.token' }, { section: 'editor' }], [settings, { url: 'https://r' }, null, { tabSize: 2 }], 's3cret');
    expect(whole).toEqual({ runner: { url: 'https://r', tokenEnv: 'T', token: 's3cret' }, format: { enable: true } });
    expect(runner).toEqual({ url: 'https://r', token: 's3cret' });
    expect(leaf).toBe('s3cret');
    expect(other).toEqual({ tabSize: 2 });
    expect(settings.runner).toEqual({ url: 'https://r', tokenEnv: 'T' });
  });

  it('copes with empty sections and changes nothing without a token', () => {
    expect(injectToken([{ section: 'mthds' }], [null], 't')).toEqual([{ runner: { token: 't' } }]);
    const results = [{ runner: { url: 'u' } }];
    expect(injectToken([{ section: 'mthds' }], results, undefined)).toEqual(results);
    expect(injectToken([{ section: 'mthds' }], results, '')).toEqual(results);
  });
});

describe('configurationMiddleware', () => {
  it('answers what VS Code answers, plus the stored token', async () => {
    const next = vi.fn(async () => [{ runner: { url: 'https://r' } }]);
    const middleware = configurationMiddleware({ token: 'abc' });
    const params = { items: [{ section: 'mthds' }] };
    expect(await middleware(params, CANCEL, next)).toEqual([{ runner: { url: 'https://r', token: 'abc' } }]);
    expect(next).toHaveBeenCalledWith(params, CANCEL);
    // A failure of the default handler passes through unchanged.
    const failing = configurationMiddleware({ token: 'abc' });
    const error = { code: -1, message: 'x' };
    expect(await failing(params, CANCEL, async () => error)).toBe(error);
  });
});

describe('TokenStore', () => {
  beforeEach(() => resetFakes());

  it('reads, trims, stores and deletes the secret, and reports changes', async () => {
    const secrets = new FakeSecretStorage();
    await secrets.store(TOKEN_SECRET_KEY, '  from-before \n');
    const store = new TokenStore(secrets as unknown as vscode.SecretStorage);
    expect(await store.load()).toBe('from-before');
    const seen: (string | undefined)[] = [];
    store.onDidChange((t) => seen.push(t));
    await store.set('new-token');
    expect(secrets.values.get(TOKEN_SECRET_KEY)).toBe('new-token');
    expect(store.token).toBe('new-token');
    await store.set('   ');
    expect(secrets.values.has(TOKEN_SECRET_KEY)).toBe(false);
    expect(store.token).toBeUndefined();
    await vi.waitFor(() => expect(seen).toEqual(['new-token', undefined]));
    // Another key of the storage is not ours.
    await secrets.store('other', 'x');
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toHaveLength(2);
    store.dispose();
  });

  it('asks for the token with a hidden input box; cancel keeps the old one', async () => {
    const secrets = new FakeSecretStorage();
    const store = new TokenStore(secrets as unknown as vscode.SecretStorage);
    window.showInputBox.mockResolvedValueOnce(undefined);
    expect(await promptForToken(store)).toBe(false);
    window.showInputBox.mockResolvedValueOnce('tok-1');
    expect(await promptForToken(store)).toBe(true);
    expect(window.showInputBox.mock.calls[1]![0]).toMatchObject({ password: true, ignoreFocusOut: true });
    expect(secrets.values.get(TOKEN_SECRET_KEY)).toBe('tok-1');
    expect(window.showInformationMessage).toHaveBeenLastCalledWith(expect.stringContaining('keychain'));
    window.showInputBox.mockResolvedValueOnce('');
    expect(await promptForToken(store)).toBe(true);
    expect(secrets.values.has(TOKEN_SECRET_KEY)).toBe(false);
    store.dispose();
  });
});
