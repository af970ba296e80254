// Small DOM helpers (no innerHTML: the CSP forbids inline styles and we never build markup from strings).

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Record<string, string> = {}, ...kids: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

/** A button with an optional codicon and a text label. */
export function button(label: string, icon: string | undefined, onClick: (e: MouseEvent) => void, title?: string): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'btn', title: title ?? label });
  if (icon) b.append(el('span', { class: `codicon codicon-${icon}`, 'aria-hidden': 'true' }));
  if (label) b.append(el('span', { class: 'btn-label' }, label));
  b.addEventListener('click', onClick);
  return b;
}

export function toggle(label: string, checked: boolean, onChange: (v: boolean) => void, title?: string): HTMLLabelElement {
  const input = el('input', { type: 'checkbox' });
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  return el('label', { class: 'toggle', title: title ?? label }, input, label);
}

export function select<T extends string>(
  label: string, options: ReadonlyArray<[T, string]>, value: T, onChange: (v: T) => void,
): HTMLLabelElement {
  const s = el('select', { 'aria-label': label });
  for (const [v, text] of options) {
    const o = el('option', { value: v }, text);
    if (v === value) o.selected = true;
    s.append(o);
  }
  s.addEventListener('change', () => onChange(s.value as T));
  return el('label', { class: 'select' }, el('span', { class: 'select-label' }, label), s);
}

export function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}
