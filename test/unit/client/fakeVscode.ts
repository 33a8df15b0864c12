// A minimal stand-in for the `vscode` module (which exists only inside VS Code), enough for the
// client's units under test: disposables, events, the status bar, messages, input boxes, secrets,
// a file system in memory (workspace.fs) and file watchers.
// Tests load it with `vi.mock('vscode', () => import('./fakeVscode.js'))`.

import { vi } from 'vitest';

export class Disposable {
  constructor(private readonly fn: () => void) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (listener: (e: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export interface FakeStatusBarItem {
  id: string;
  alignment: StatusBarAlignment;
  priority: number;
  name?: string;
  text: string;
  tooltip?: string;
  command?: string;
  backgroundColor?: ThemeColor;
  visible: boolean;
  disposed: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export const statusBarItems: FakeStatusBarItem[] = [];

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    private readonly text: string,
  ) {}
  get fsPath(): string {
    return decodeURIComponent(this.path);
  }
  static parse(text: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/[^/]*)?(.*)$/i.exec(text);
    return new Uri(m?.[1] ?? 'file', m?.[2] ?? text, text);
  }
  static file(path: string): Uri {
    return new Uri('file', path, `file://${path}`);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return Uri.parse(`${base.toString().replace(/\/+$/, '')}/${parts.join('/')}`);
  }
  toString(): string {
    return this.text;
  }
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
}

export enum TextEditorRevealType {
  Default = 0,
  InCenter = 1,
  InCenterIfOutsideViewport = 2,
}

/** A webview panel that records what the extension posts, and lets a test post back. */
export class FakeWebviewPanel {
  title: string;
  viewColumn = ViewColumn.Two;
  disposed = false;
  revealed = 0;
  readonly posted: unknown[] = [];
  readonly fromWebview = new EventEmitter<unknown>();
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly webview = {
    html: '',
    cspSource: 'vscode-webview://fake',
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: unknown) => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: this.fromWebview.event,
  };
  constructor(
    readonly viewType: string,
    title: string,
    readonly options: unknown,
  ) {
    this.title = title;
  }
  reveal(): void {
    this.revealed++;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

export const panels: FakeWebviewPanel[] = [];
export const events = {
  activeEditor: new EventEmitter<unknown>(),
  textChanged: new EventEmitter<{ document: { languageId: string; uri: Uri }; contentChanges: unknown[] }>(),
  diagnosticsChanged: new EventEmitter<{ uris: Uri[] }>(),
  foldersChanged: new EventEmitter<{ added: { uri: Uri }[]; removed: { uri: Uri }[] }>(),
};

export const commands = {
  registerCommand: vi.fn((_id: string, _run: (...args: unknown[]) => unknown) => new Disposable(() => undefined)),
};

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

/** workspace.fs over folders and files in memory, keyed by URI text; `failing` folders cannot be listed. */
export class FakeFileSystem {
  readonly folders = new Map<string, Map<string, FileType>>();
  readonly files = new Map<string, Uint8Array>();
  readonly failing = new Set<string>();
  /** An entry and its parent folders up to the URI's authority (`scheme://authority`). */
  add(uri: string, type: FileType, text = ''): void {
    if (type & FileType.Directory && !this.folders.has(uri)) this.folders.set(uri, new Map());
    if (type & FileType.File) this.files.set(uri, new TextEncoder().encode(text));
    const cut = uri.lastIndexOf('/');
    const parent = uri.slice(0, cut);
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*$/i.test(parent)) return;
    this.add(parent, FileType.Directory);
    this.folders.get(parent)!.set(uri.slice(cut + 1), type);
  }
  clear(): void {
    this.folders.clear();
    this.files.clear();
    this.failing.clear();
  }
}

export const fileSystem = new FakeFileSystem();

/** A watcher whose events a test fires (`watcher.create.fire(uri)`). */
export class FakeFileSystemWatcher {
  readonly create = new EventEmitter<Uri>();
  readonly change = new EventEmitter<Uri>();
  readonly delete = new EventEmitter<Uri>();
  readonly onDidCreate = this.create.event;
  readonly onDidChange = this.change.event;
  readonly onDidDelete = this.delete.event;
  disposed = false;
  constructor(readonly glob: string) {}
  dispose(): void {
    this.disposed = true;
  }
}

export const watchers: FakeFileSystemWatcher[] = [];

export const workspace = {
  onDidChangeTextDocument: events.textChanged.event,
  onDidChangeWorkspaceFolders: events.foldersChanged.event,
  workspaceFolders: undefined as { uri: Uri }[] | undefined,
  fs: {
    readDirectory: vi.fn(async (uri: Uri): Promise<[string, FileType][]> => {
      const entries = fileSystem.folders.get(uri.toString());
      if (!entries || fileSystem.failing.has(uri.toString())) throw new Error(`cannot list ${uri.toString()}`);
      return [...entries];
    }),
    readFile: vi.fn(async (uri: Uri): Promise<Uint8Array> => {
      const bytes = fileSystem.files.get(uri.toString());
      if (!bytes) throw new Error(`no file ${uri.toString()}`);
      return bytes;
    }),
  },
  createFileSystemWatcher: vi.fn((glob: string) => {
    const watcher = new FakeFileSystemWatcher(glob);
    watchers.push(watcher);
    return watcher;
  }),
};

export const languages = {
  onDidChangeDiagnostics: events.diagnosticsChanged.event,
};

export const window = {
  createWebviewPanel: vi.fn((viewType: string, title: string, _show: unknown, options: unknown) => {
    const panel = new FakeWebviewPanel(viewType, title, options);
    panels.push(panel);
    return panel;
  }),
  onDidChangeActiveTextEditor: events.activeEditor.event,
  visibleTextEditors: [] as { document: { uri: Uri }; viewColumn?: ViewColumn }[],
  showTextDocument: vi.fn(async (_uri: Uri, _options?: unknown) => ({ revealRange: vi.fn() })),
  createStatusBarItem: vi.fn((id: string, alignment: StatusBarAlignment, priority: number): FakeStatusBarItem => {
    const item: FakeStatusBarItem = {
      id,
      alignment,
      priority,
      text: '',
      visible: false,
      disposed: false,
      show() {
        this.visible = true;
      },
      hide() {
        this.visible = false;
      },
      dispose() {
        this.disposed = true;
      },
    };
    statusBarItems.push(item);
    return item;
  }),
  createOutputChannel: vi.fn((_name: string) => ({ lines: [] as string[], appendLine(line: string) { this.lines.push(line); }, show: vi.fn(), dispose: vi.fn() })),
  showInputBox: vi.fn(async (_options?: unknown): Promise<string | undefined> => undefined),
  showInformationMessage: vi.fn(async (_message: string) => undefined),
  showWarningMessage: vi.fn(async (_message: string) => undefined),
  showErrorMessage: vi.fn(async (_message: string) => undefined),
};

/** SecretStorage in memory, firing onDidChange like VS Code's. */
export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
}

export function resetFakes(): void {
  statusBarItems.length = 0;
  panels.length = 0;
  window.visibleTextEditors = [];
  fileSystem.clear();
  workspace.workspaceFolders = undefined;
  watchers.length = 0;
  workspace.fs.readDirectory.mockClear();
  workspace.fs.readFile.mockClear();
  workspace.createFileSystemWatcher.mockClear();
  for (const fn of Object.values(window)) if (typeof fn === 'function' && 'mockClear' in fn) fn.mockClear();
}
