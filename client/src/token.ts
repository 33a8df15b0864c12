// The runner's bearer token lives in VS Code's SecretStorage (the OS keychain), never in
// settings.json. The server reads its settings through `workspace/configuration`; the client's
// configuration middleware adds the token to that answer only, in memory.

import type { ConfigurationParams } from 'vscode-languageclient';
import * as vscode from 'vscode';

export const TOKEN_SECRET_KEY = 'mthds.runner.token';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The configuration answer with the token added where the server looks for it: `runner.token` of
 * section `mthds`, `token` of section `mthds.runner`, or the value of `mthds.runner.token` itself.
 * Copies, never mutates: the values may be VS Code's own configuration objects.
 */
export function injectToken(items: readonly { section?: string }[], results: readonly unknown[], token: string | undefined): unknown[] {
  if (token === undefined || token === '') return [...results];
  return results.map((result, i) => {
    const section = items[i]?.section;
    if (section === 'mthds') {
      const base = isRecord(result) ? result : {};
      const runner = isRecord(base['runner']) ? base['runner'] : {};
      return { ...base, runner: { ...runner, token } };
    }
    if (section === 'mthds.runner') return { ...(isRecord(result) ? result : {}), token };
    if (section === 'mthds.runner.token') return token;
    return result;
  });
}

/** The token, read once from SecretStorage and kept current as it changes. */
export class TokenStore implements vscode.Disposable {
  private value: string | undefined;
  private readonly listeners: ((token: string | undefined) => void)[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === TOKEN_SECRET_KEY) void this.load().then(() => this.listeners.forEach((l) => l(this.value)));
    });
  }

  async load(): Promise<string | undefined> {
    const stored = await this.secrets.get(TOKEN_SECRET_KEY);
    this.value = stored !== undefined && stored.trim() !== '' ? stored.trim() : undefined;
    return this.value;
  }

  get token(): string | undefined {
    return this.value;
  }

  async set(token: string | undefined): Promise<void> {
    if (token === undefined || token.trim() === '') await this.secrets.delete(TOKEN_SECRET_KEY);
    else await this.secrets.store(TOKEN_SECRET_KEY, token.trim());
    await this.load();
  }

  onDidChange(listener: (token: string | undefined) => void): vscode.Disposable {
    this.listeners.push(listener);
    return new vscode.Disposable(() => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.length = 0;
  }
}

/** The configuration middleware of the language client: the normal answer, plus the token. */
export function configurationMiddleware(store: { readonly token: string | undefined }) {
  return async (params: ConfigurationParams, token: vscode.CancellationToken, next: (params: ConfigurationParams, token: vscode.CancellationToken) => unknown): Promise<unknown[]> => {
    const results = await next(params, token);
    if (!Array.isArray(results)) return results as unknown[];
    return injectToken(params.items, results, store.token);
  };
}

/** "MTHDS: Set Runner Token": asks for the token (hidden input) and stores it as a secret. */
export async function promptForToken(store: TokenStore): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: 'MTHDS runner token',
    prompt: 'The bearer token for the runner at mthds.runner.url. It is kept in the system keychain (VS Code SecretStorage), not in settings. Leave empty to remove it.',
    password: true,
    ignoreFocusOut: true,
    placeHolder: store.token !== undefined ? '(a token is set; enter a new one, or leave empty to remove it)' : 'token',
  });
  if (value === undefined) return false;
  await store.set(value);
  void vscode.window.showInformationMessage(value.trim() === '' ? 'The MTHDS runner token was removed.' : 'The MTHDS runner token was saved in the keychain.');
  return true;
}
