// A minimal stand-in for the `vscode` module (which exists only inside VS Code), enough for the
// client's units under test: disposables, events, the status bar, messages, input boxes, secrets.
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
};

export const workspace = {
  onDidChangeTextDocument: events.textChanged.event,
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
  for (const fn of Object.values(window)) if (typeof fn === 'function' && 'mockClear' in fn) fn.mockClear();
}
