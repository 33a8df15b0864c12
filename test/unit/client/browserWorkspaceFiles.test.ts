// The browser's client reads the workspace's method files through the editor's file system (here a
// github.dev-like virtual one, `vscode-vfs://github/owner/repo`) and sends them to the language
// server's worker as `mthds/files` notifications: the walk at start, then what the watcher sees.

import { beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));

/** The language client of the browser, recording what it sends instead of talking to a worker. */
const sent = vi.hoisted(() => {
  // The extension takes the browser's Worker when it loads.
  (globalThis as unknown as { Worker: unknown }).Worker = class {
    constructor(readonly url: string) {}
  };
  return [] as { method: string; params: unknown }[];
});
/** Documents open in the editor when a client starts: the real client sends their didOpen from start(). */
const openAtStart = vi.hoisted(() => [] as { uri: string }[]);
type Gate = (document: { uri: string }, next: (document: { uri: string }) => Promise<void>) => Promise<void>;
vi.mock('vscode-languageclient/browser.js', () => ({
  LanguageClient: class {
    private running = false;
    constructor(
      _id: string,
      _name: string,
      private readonly options: { middleware?: { didOpen?: Gate } },
    ) {}
    async start(): Promise<void> {
      this.running = true;
      const didOpen = async (document: { uri: string }): Promise<void> => void sent.push({ method: 'textDocument/didOpen', params: document });
      for (const document of openAtStart) void (this.options.middleware?.didOpen ? this.options.middleware.didOpen(document, didOpen) : didOpen(document));
    }
    async stop(): Promise<void> {
      this.running = false;
    }
    isRunning(): boolean {
      return this.running;
    }
    async sendNotification(method: string, params: unknown): Promise<void> {
      sent.push({ method, params });
    }
  },
}));

import { events, FakeSecretStorage, FileType, fileSystem, resetFakes, Uri, watchers, workspace } from './fakeVscode.js';
import type * as vscode from 'vscode';
import { readWorkspace, watchWorkspace } from '../../../client/src/browser/workspaceFiles.js';
import { activate } from '../../../client/src/browser/extension.js';
import { FILES_NOTIFICATION, type FileChange, type FilesParams } from '../../../server/src/protocol/browserFiles.js';

const ROOT = 'vscode-vfs://github/owner/repo';
const root = (): vscode.Uri => Uri.parse(ROOT) as unknown as vscode.Uri;
const at = (path: string): string => `${ROOT}/${path}`;
const file = (path: string, text: string): void => fileSystem.add(at(path), FileType.File, text);
const folder = (path: string): void => fileSystem.add(at(path), FileType.Directory);
const byUri = (changes: FileChange[]): FileChange[] => [...changes].sort((a, b) => a.uri.localeCompare(b.uri));
const listed = (): string[] => workspace.fs.readDirectory.mock.calls.map(([u]) => u.toString());
const read = (): string[] => workspace.fs.readFile.mock.calls.map(([u]) => u.toString());
/** Lets the watcher's reads (promises) settle. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A repository with method files at several depths, other files, and folders never walked. */
function repository(): void {
  fileSystem.add(ROOT, FileType.Directory);
  file('METHODS.toml', '[package]\nname = "root"\n');
  file('methods.lock', '# lock\n');
  file('main.mthds', 'domain = "main" # é — ✓\n');
  file('README.md', '# not a method file\n');
  file('main.mthds.bak', 'not a bundle\n');
  file('pkg/review.mthds', 'domain = "review"\n');
  file('pkg/notes.txt', 'notes\n');
  file('pkg/deep/er/METHODS.toml', '[package]\nname = "deep"\n');
  file('pkg/deep/er/methods.lock', '# deep lock\n');
  file('pkg/deep/er/x.mthds', 'domain = "x"\n');
  folder('empty');
  file('.git/hooks/hook.mthds', 'skipped');
  file('node_modules/lib/dep.mthds', 'skipped');
  file('.mthds/installed/pkg.mthds', 'skipped');
  file('pkg/node_modules/nested.mthds', 'skipped');
  file('pkg/.venv/METHODS.toml', 'skipped');
}

const EXPECTED: FileChange[] = byUri([
  { uri: at('METHODS.toml'), text: '[package]\nname = "root"\n' },
  { uri: at('methods.lock'), text: '# lock\n' },
  { uri: at('main.mthds'), text: 'domain = "main" # é — ✓\n' },
  { uri: at('pkg/review.mthds'), text: 'domain = "review"\n' },
  { uri: at('pkg/deep/er/METHODS.toml'), text: '[package]\nname = "deep"\n' },
  { uri: at('pkg/deep/er/methods.lock'), text: '# deep lock\n' },
  { uri: at('pkg/deep/er/x.mthds'), text: 'domain = "x"\n' },
]);

beforeEach(() => {
  resetFakes();
  sent.length = 0;
  openAtStart.length = 0;
});

describe('readWorkspace over a virtual file system', () => {
  it('finds the bundles, METHODS.toml and methods.lock of nested folders and reads exactly those', async () => {
    repository();
    const log = vi.fn();
    const changes = await readWorkspace([root()], log);
    expect(byUri(changes)).toEqual(EXPECTED);
    expect(read().sort((a, b) => a.localeCompare(b))).toEqual(EXPECTED.map((c) => c.uri));
    expect(log).not.toHaveBeenCalled();
  });

  it('never enters the skipped folders, even nested (of .mthds, it lists only what it holds, for its installed methods)', async () => {
    repository();
    await readWorkspace([root()], vi.fn());
    expect(listed().sort()).toEqual([ROOT, at('.mthds'), at('empty'), at('pkg'), at('pkg/deep'), at('pkg/deep/er')]);
    expect(read().some((u) => /\/(\.git|node_modules|\.mthds|\.venv)\//.test(u))).toBe(false);
  });

  it('reads the methods installed in the workspace (.mthds/methods/, at any depth) and nothing else of .mthds', async () => {
    repository();
    file('.mthds/methods/scoring/METHODS.toml', '[package]\nname = "scoring"\n');
    file('.mthds/methods/scoring/scoring.mthds', 'domain = "scoring"\n');
    file('.mthds/methods/scoring/node_modules/x.mthds', 'skipped');
    file('.mthds/packages/github.com/acme/x/1.0.0/x.mthds', 'skipped');
    file('pkg/.mthds/methods/local/local.mthds', 'domain = "local"\n');
    file('pkg/.mthds/cache/c.mthds', 'skipped');
    file('methods/plain.mthds', 'domain = "plain"\n');
    const log = vi.fn();
    const changes = await readWorkspace([root()], log);
    expect(byUri(changes)).toEqual(byUri([
      ...EXPECTED,
      { uri: at('.mthds/methods/scoring/METHODS.toml'), text: '[package]\nname = "scoring"\n' },
      { uri: at('.mthds/methods/scoring/scoring.mthds'), text: 'domain = "scoring"\n' },
      { uri: at('pkg/.mthds/methods/local/local.mthds'), text: 'domain = "local"\n' },
      { uri: at('methods/plain.mthds'), text: 'domain = "plain"\n' },
    ]));
    expect(listed()).not.toContain(at('.mthds/packages'));
    expect(listed()).not.toContain(at('.mthds/installed'));
    expect(listed()).not.toContain(at('pkg/.mthds/cache'));
    expect(log).not.toHaveBeenCalled();
  });

  it('counts the installed methods in its bound like any method file', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    for (let i = 0; i < 5_000; i++) file(`many/f${i}.mthds`, 'x');
    file('zz/.mthds/methods/late/late.mthds', 'never read');
    const bound = vi.fn();
    const changes = await readWorkspace([root()], vi.fn(), bound);
    expect(changes).toHaveLength(5_000);
    expect(read()).not.toContain(at('zz/.mthds/methods/late/late.mthds'));
    expect(bound).toHaveBeenCalledWith({ folder: ROOT, limit: 5_000, counted: 'method files' });
  });

  it('does not follow symbolic links, to folders or to files', async () => {
    repository();
    file('linked/inside.mthds', 'linked');
    fileSystem.add(at('linked'), FileType.Directory | FileType.SymbolicLink);
    fileSystem.add(at('link.mthds'), FileType.File | FileType.SymbolicLink, 'linked');
    const changes = await readWorkspace([root()], vi.fn());
    expect(byUri(changes)).toEqual(EXPECTED);
    expect(listed()).not.toContain(at('linked'));
  });

  it('walks every workspace folder', async () => {
    repository();
    fileSystem.add('vscode-vfs://github/owner/other', FileType.Directory);
    fileSystem.add('vscode-vfs://github/owner/other/o.mthds', FileType.File, 'domain = "o"\n');
    const changes = await readWorkspace([root(), Uri.parse('vscode-vfs://github/owner/other') as unknown as vscode.Uri], vi.fn());
    expect(byUri(changes)).toEqual(byUri([...EXPECTED, { uri: 'vscode-vfs://github/owner/other/o.mthds', text: 'domain = "o"\n' }]));
  });

  it('goes on past a folder that cannot be listed, and sends that folder as unreadable', async () => {
    repository();
    fileSystem.failing.add(at('pkg/deep'));
    // Listed after pkg/deep (the walk goes level by level).
    file('zz/sub/after.mthds', 'domain = "after"\n');
    const changes = await readWorkspace([root()], vi.fn());
    const kept = EXPECTED.filter((c) => !c.uri.startsWith(at('pkg/deep/')));
    expect(byUri(changes)).toEqual(byUri([...kept, { uri: at('pkg/deep'), unreadable: true }, { uri: at('zz/sub/after.mthds'), text: 'domain = "after"\n' }]));
    expect(listed().indexOf(at('zz/sub'))).toBeGreaterThan(listed().indexOf(at('pkg/deep')));
  });

  it('leaves out a file that cannot be read, and reads the others', async () => {
    repository();
    fileSystem.folders.get(at('pkg'))!.set('gone.mthds', FileType.File);
    const changes = await readWorkspace([root()], vi.fn());
    expect(read()).toContain(at('pkg/gone.mthds'));
    expect(byUri(changes)).toEqual(EXPECTED);
  });

  it('stops at 5000 method files: the first 5000 are sent, the rest not read, and the log says so', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    for (let i = 0; i < 5_010; i++) file(`many/f${String(i).padStart(5, '0')}.mthds`, `domain = "f${i}"\n`);
    file('zz/later.mthds', 'never read');
    const log = vi.fn();
    const changes = await readWorkspace([root()], log);
    expect(changes).toHaveLength(5_000);
    expect(changes.at(-1)).toEqual({ uri: at('many/f04999.mthds'), text: 'domain = "f4999"\n' });
    expect(workspace.fs.readFile).toHaveBeenCalledTimes(5_000);
    expect(listed()).not.toContain(at('zz'));
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('mthds: the workspace holds more than 5000 method files; the others are not read');
  });

  it('reads 5000 method files in full without a word in the log', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    for (let i = 0; i < 5_000; i++) file(`many/f${i}.mthds`, 'x');
    const log = vi.fn();
    expect(await readWorkspace([root()], log)).toHaveLength(5_000);
    expect(log).not.toHaveBeenCalled();
  });

  it('stops at 20000 folders: what was read before is kept, the later folders are not listed, and the log says so', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    file('first.mthds', 'domain = "first"\n');
    // The root and 20000 folders below it: 20001 to list.
    for (let i = 0; i < 20_000; i++) folder(`d${String(i).padStart(5, '0')}`);
    file('d00000/early.mthds', 'domain = "early"\n');
    file('d19999/late.mthds', 'never read');
    const log = vi.fn();
    const changes = await readWorkspace([root()], log);
    expect(byUri(changes)).toEqual(byUri([
      { uri: at('first.mthds'), text: 'domain = "first"\n' },
      { uri: at('d00000/early.mthds'), text: 'domain = "early"\n' },
    ]));
    expect(workspace.fs.readDirectory).toHaveBeenCalledTimes(20_000);
    expect(listed()).not.toContain(at('d19999'));
    expect(read()).not.toContain(at('d19999/late.mthds'));
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('mthds: the workspace holds more than 20000 folders; the others are not read');
  });
});

describe('watchWorkspace', () => {
  it('watches the method files and sends a created or changed file with its text, a deleted one as deleted', async () => {
    repository();
    const send = vi.fn();
    const disposable = watchWorkspace(send);
    expect(watchers).toHaveLength(1);
    const [watcher] = watchers;
    expect(watcher!.glob).toBe('**/{*.mthds,METHODS.toml,methods.lock}');

    file('pkg/new.mthds', 'domain = "new"\n');
    watcher!.create.fire(Uri.parse(at('pkg/new.mthds')));
    await settle();
    expect(send).toHaveBeenLastCalledWith([{ uri: at('pkg/new.mthds'), text: 'domain = "new"\n' }]);

    file('METHODS.toml', '[package]\nname = "renamed"\n');
    watcher!.change.fire(Uri.parse(at('METHODS.toml')));
    await settle();
    expect(send).toHaveBeenLastCalledWith([{ uri: at('METHODS.toml'), text: '[package]\nname = "renamed"\n' }]);

    watcher!.delete.fire(Uri.parse(at('pkg/review.mthds')));
    expect(send).toHaveBeenLastCalledWith([{ uri: at('pkg/review.mthds'), deleted: true }]);
    expect(send).toHaveBeenCalledTimes(3);

    disposable.dispose();
    expect(watcher!.disposed).toBe(true);
  });

  it('sends nothing for a file under a folder the walk skips, as the walk does', async () => {
    const send = vi.fn();
    watchWorkspace(send);
    file('node_modules/dep/dep.mthds', 'domain = "dep"\n');
    file('.mthds/installed/lib/lib.mthds', 'domain = "lib"\n');
    file('.mthds/methods/lib/.git/hook.mthds', 'domain = "hook"\n');
    watchers[0]!.create.fire(Uri.parse(at('node_modules/dep/dep.mthds')));
    watchers[0]!.change.fire(Uri.parse(at('.mthds/installed/lib/lib.mthds')));
    watchers[0]!.change.fire(Uri.parse(at('.mthds/methods/lib/.git/hook.mthds')));
    watchers[0]!.delete.fire(Uri.parse(at('.git/x.mthds')));
    await settle();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the changes of the methods installed in the workspace, as the walk reads them', async () => {
    const send = vi.fn();
    watchWorkspace(send);
    file('.mthds/methods/lib/lib.mthds', 'domain = "lib"\n');
    watchers[0]!.change.fire(Uri.parse(at('.mthds/methods/lib/lib.mthds')));
    await settle();
    watchers[0]!.delete.fire(Uri.parse(at('pkg/.mthds/methods/lib/METHODS.toml')));
    expect(send.mock.calls).toEqual([[[{ uri: at('.mthds/methods/lib/lib.mthds'), text: 'domain = "lib"\n' }]], [[{ uri: at('pkg/.mthds/methods/lib/METHODS.toml'), deleted: true }]]]);
  });

  it('sends nothing for a created file that is gone before it is read (its deletion follows)', async () => {
    const send = vi.fn();
    watchWorkspace(send);
    watchers[0]!.create.fire(Uri.parse(at('brief.mthds')));
    await settle();
    expect(send).not.toHaveBeenCalled();
  });
});

describe('the browser extension', () => {
  async function start(): Promise<vscode.ExtensionContext> {
    const context = { subscriptions: [] as vscode.Disposable[], secrets: new FakeSecretStorage(), extensionUri: Uri.parse('https://extensions.example/mthds') };
    workspace.workspaceFolders = [{ uri: Uri.parse(ROOT) }];
    await activate(context as unknown as vscode.ExtensionContext);
    return context as unknown as vscode.ExtensionContext;
  }
  const files = (): FileChange[][] => sent.filter((n) => n.method === FILES_NOTIFICATION).map((n) => (n.params as FilesParams).changes);

  it('sends the workspace once started, then each watcher event, as `mthds/files` notifications', async () => {
    repository();
    await start();
    expect(FILES_NOTIFICATION).toBe('mthds/files');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('mthds/files');
    expect(Object.keys(sent[0]!.params as object)).toEqual(['changes']);
    expect(byUri(files()[0]!)).toEqual(EXPECTED);

    file('pkg/added.mthds', 'domain = "added"\n');
    watchers[0]!.create.fire(Uri.parse(at('pkg/added.mthds')));
    await settle();
    file('main.mthds', 'domain = "main2"\n');
    watchers[0]!.change.fire(Uri.parse(at('main.mthds')));
    await settle();
    watchers[0]!.delete.fire(Uri.parse(at('methods.lock')));
    expect(files().slice(1)).toEqual([
      [{ uri: at('pkg/added.mthds'), text: 'domain = "added"\n' }],
      [{ uri: at('main.mthds'), text: 'domain = "main2"\n' }],
      [{ uri: at('methods.lock'), deleted: true }],
    ]);
  });

  it('sends the didOpen of a document open at start only after the workspace\'s files', async () => {
    repository();
    openAtStart.push({ uri: at('main.mthds') });
    await start();
    await settle();
    expect(sent.map((n) => n.method)).toEqual(['mthds/files', 'textDocument/didOpen']);
    expect(sent[1]!.params).toEqual({ uri: at('main.mthds') });
  });

  it('reads an added workspace folder and sends what it holds', async () => {
    repository();
    await start();
    fileSystem.add('vscode-vfs://github/owner/second/s.mthds', FileType.File, 'domain = "s"\n');
    events.foldersChanged.fire({ added: [{ uri: Uri.parse('vscode-vfs://github/owner/second') }], removed: [] });
    await settle();
    expect(files().at(-1)).toEqual([{ uri: 'vscode-vfs://github/owner/second/s.mthds', text: 'domain = "s"\n' }]);
  });

  it('tells the worker where its walk stopped at the bound, with the files read before', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    for (let i = 0; i < 5_001; i++) file(`many/f${String(i).padStart(5, '0')}.mthds`, 'x');
    await start();
    expect(sent).toHaveLength(1);
    const params = sent[0]!.params as FilesParams;
    expect(params.changes).toHaveLength(5_000);
    expect(params.bound).toEqual({ folder: ROOT, limit: 5_000, counted: 'method files' });
  });

  it('sends no empty notification for a workspace without method files', async () => {
    fileSystem.add(ROOT, FileType.Directory);
    file('README.md', '#');
    await start();
    expect(files()).toEqual([]);
  });
});
