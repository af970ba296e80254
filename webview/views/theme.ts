// Theme: VS Code sets body classes (vscode-light, vscode-dark, vscode-high-contrast[-light]) and
// --vscode-* variables; the standalone report picks light or dark from #theme=… / ?theme=… or the
// system preference and relies on the fallbacks in style.css.
import { Theme } from '../core/colors';
import { Palette } from './flame-paint';

export function currentTheme(): Theme {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast') && !c.contains('vscode-high-contrast-light')) return 'high-contrast';
  if (c.contains('vscode-dark') || c.contains('theme-dark')) return 'dark';
  if (c.contains('vscode-light') || c.contains('vscode-high-contrast-light') || c.contains('theme-light')) return 'light';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** For the report: `#theme=dark`, `?theme=light` … sets the body class the CSS fallbacks key on. */
export function applyForcedTheme(): void {
  if (document.body.className.includes('vscode-')) return;
  const m = /[#?&]theme=(light|dark)\b/.exec(location.hash + location.search);
  const theme = m ? m[1] : window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.body.classList.remove('theme-light', 'theme-dark');
  document.body.classList.add(`theme-${theme}`);
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

/** Canvas colours from the CSS variables in force (style.css maps VS Code's onto --hl-*). */
export function readPalette(node: Element): Palette {
  const s = getComputedStyle(node);
  const family = cssVar(s, '--hl-font-family', 'system-ui, sans-serif');
  return {
    background: cssVar(s, '--hl-bg', '#ffffff'),
    text: cssVar(s, '--hl-fg', '#1b1b1b'),
    textOnFrame: cssVar(s, '--hl-frame-fg', '#1b1b1b'),
    match: cssVar(s, '--hl-match', '#d63bd6'),
    matchText: cssVar(s, '--hl-match-fg', '#ffffff'),
    focus: cssVar(s, '--hl-focus', '#0066cc'),
    highlight: cssVar(s, '--hl-highlight', '#ff8c00'),
    font: `12px ${family}`,
  };
}

/** Calls back when VS Code switches theme (it rewrites the body class) or the system preference changes. */
export function onThemeChange(cb: () => void): void {
  new MutationObserver(cb).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    applyForcedTheme();
    cb();
  });
}
