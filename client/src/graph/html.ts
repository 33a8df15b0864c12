// The webview's page: a strict Content-Security-Policy (only our bundled script, by nonce; no
// network at all), theme colours through VS Code's CSS variables, and the graph inserted by the
// script. Pure, so the policy is tested.

export interface GraphHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per page load. */
  nonce: string;
  /** `webview.asWebviewUri(client/dist/graph.js)`. */
  scriptUri: string;
}

export const GRAPH_CSS = `
body { padding: 0 12px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: 12px; }
h2 { font-size: 13px; font-weight: 600; margin: 14px 0 4px; }
#status { color: var(--vscode-descriptionForeground); margin: 8px 0; }
.legend { display: flex; gap: 12px; margin: 8px 0; color: var(--vscode-descriptionForeground); }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; vertical-align: -1px; }
.legend .l-operator::before { background: var(--vscode-charts-blue, #3794ff); }
.legend .l-controller::before { background: var(--vscode-charts-purple, #b180d7); }
.legend .l-signature::before { background: var(--vscode-charts-yellow, #cca700); }
svg.mthds-graph { display: block; overflow: visible; }
.node { cursor: pointer; }
.node-box { fill: var(--vscode-editor-background); stroke-width: 1.5; }
.node-operator .node-box { stroke: var(--vscode-charts-blue, #3794ff); }
.node-controller .node-box { stroke: var(--vscode-charts-purple, #b180d7); }
.node-missing .node-box { stroke: var(--vscode-disabledForeground, #888888); }
.node-missing .node-code { fill: var(--vscode-disabledForeground, #888888); font-weight: 400; }
.node-signature .node-box { stroke: var(--vscode-charts-yellow, #cca700); stroke-dasharray: 5 3; }
.node-root .node-box { stroke-width: 3; }
.has-errors .node-box { fill: var(--vscode-inputValidation-errorBackground, rgba(255,0,0,0.08)); }
.node:hover .node-box, .node:focus .node-box { fill: var(--vscode-list-hoverBackground); }
.node:focus { outline: none; }
.node text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); }
.node-code { font-weight: 600; font-size: 13px; }
.node-type, .node-output { font-size: 11px; fill: var(--vscode-descriptionForeground) !important; }
.badge circle { stroke: var(--vscode-editor-background); stroke-width: 2; }
.badge text { font-size: 10px; font-weight: 700; fill: #fff !important; }
.badge-error circle { fill: var(--vscode-errorForeground, #f14c4c); }
.badge-warning circle { fill: var(--vscode-editorWarning-foreground, #cca700); }
.edge { stroke: var(--vscode-descriptionForeground); stroke-width: 1.3; }
.edge-branch { stroke: var(--vscode-charts-purple, #b180d7); }
.edge-outcome { stroke: var(--vscode-charts-green, #89d185); }
.edge-default_outcome { stroke: var(--vscode-charts-green, #89d185); stroke-dasharray: 2 3; }
.edge-batch { stroke-dasharray: 6 3; stroke-width: 2; }
.edge-back { stroke-dasharray: 3 3; }
.arrow { fill: var(--vscode-descriptionForeground); }
.edge-label { font-size: 10px; fill: var(--vscode-descriptionForeground); paint-order: stroke; stroke: var(--vscode-editor-background); stroke-width: 3px; stroke-linejoin: round; }
.empty { color: var(--vscode-descriptionForeground); }
`;

export function graphHtml(options: GraphHtmlOptions): string {
  const csp = [`default-src 'none'`, `style-src 'nonce-${options.nonce}'`, `script-src 'nonce-${options.nonce}'`, `img-src ${options.cspSource} data:`, `font-src ${options.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Method graph</title>
<style nonce="${options.nonce}">${GRAPH_CSS}</style>
</head>
<body>
<div class="legend"><span class="l-operator">operator</span><span class="l-controller">controller</span><span class="l-signature">signature</span></div>
<div id="status">Loading the method graph…</div>
<div id="graph"></div>
<script nonce="${options.nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}

/** A nonce for the policy: 24 base64 characters from a cryptographic source. */
export function makeNonce(random: (size: number) => Uint8Array): string {
  return Array.from(random(24), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[b % 64]).join('');
}
