// Paints a laid-out frame tree on a canvas: only the rows in view, and whole subtrees narrower than
// half a pixel are skipped, so the cost follows what is visible, not the tree's size.
import { FrameTree } from '../../core/views/frames';
import { Layout } from '../core/layout';

export interface Palette {
  background: string;
  text: string;
  textOnFrame: string;
  match: string;
  matchText: string;
  focus: string;
  highlight: string;
  font: string;
}

export interface PaintInput {
  tree: FrameTree;
  lay: Layout;
  /** CSS pixels */
  width: number;
  height: number;
  scrollTop: number;
  rowHeight: number;
  color(i: number): string;
  label(i: number): string;
  /** the frame's figure ("1,204 · 3.1 %"), drawn after the label on frames wide enough for both */
  figure?(i: number): string;
  /** search results: matches drawn bright, every other frame dimmed */
  hit?: Uint8Array;
  selected: number;
  highlight: number;
  palette: Palette;
}

/** CSS pixels: a narrower frame and its subtree are not drawn (nor laid out, see flame.ts) */
export const MIN_WIDTH = 0.5;
const MIN_LABEL = 32;
/** opacity of the frames that do not match a search */
export const DIMMED = 0.28;

export function paint(ctx: CanvasRenderingContext2D, p: PaintInput): number {
  const { tree, lay, width, rowHeight: rh, palette } = p;
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, width, p.height);
  ctx.font = palette.font;
  ctx.textBaseline = 'middle';
  const charWidth = ctx.measureText('abcdefghijklmnopqrstuvwxyzABCDEFGHIJ.').width / 37;
  const firstRow = Math.floor(p.scrollTop / rh);
  const lastRow = Math.ceil((p.scrollTop + p.height) / rh);
  const base = tree.depth[lay.zoom];
  const end = tree.end[lay.zoom];
  let painted = 0;
  let lastFill = '';
  const labels: number[] = [];
  const searching = p.hit !== undefined;
  // boxes grouped by colour (frames never overlap, so the order is free): setting fillStyle parses the colour, once
  // per colour instead of once per frame; a search dims every frame but the matches, so the matches read at a glance
  const lit = new Map<string, number[]>();
  const dimmed = new Map<string, number[]>();
  for (let i = lay.zoom; i < end;) {
    const wpx = lay.w[i] * width;
    const row = tree.depth[i] - base;
    if (wpx < MIN_WIDTH || row > lastRow) {
      i = tree.end[i];
      continue;
    }
    if (row >= firstRow) {
      const x = lay.x[i] * width;
      const y = row * rh - p.scrollTop;
      const isHit = searching && p.hit![i] === 1;
      const fill = isHit ? palette.match : p.color(i);
      const groups = searching && !isHit ? dimmed : lit;
      let rects = groups.get(fill);
      if (!rects) groups.set(fill, (rects = []));
      rects.push(x, y, Math.max(wpx - 1, 0.5));
      painted++;
      if (wpx >= MIN_LABEL) labels.push(i, x, y, isHit ? 1 : 0);
    }
    i++;
  }
  for (const [groups, alpha] of [[lit, 1], [dimmed, DIMMED]] as const) {
    if (groups.size === 0) continue;
    ctx.globalAlpha = alpha;
    for (const [fill, rects] of groups) {
      ctx.fillStyle = fill;
      for (let k = 0; k < rects.length; k += 3) ctx.fillRect(rects[k], rects[k + 1], rects[k + 2], rh - 1);
    }
    lastFill = '';
  }
  ctx.globalAlpha = 1;
  // labels after the boxes: one text colour change instead of two per frame
  for (let k = 0; k < labels.length; k += 4) {
    const i = labels[k];
    const wpx = lay.w[i] * width;
    const max = Math.floor((wpx - 6) / charWidth);
    if (max < 2) continue;
    let text = p.label(i);
    if (text.length > max) text = text.slice(0, max - 1) + '…';
    else if (p.figure) {
      // the figure only when it fits whole: a cut number misleads
      const withFigure = `${text}  ${p.figure(i)}`;
      if (withFigure.length <= max) text = withFigure;
    }
    const color = labels[k + 3] ? palette.matchText : palette.textOnFrame;
    if (color !== lastFill) {
      ctx.fillStyle = color;
      lastFill = color;
    }
    const dim = searching && !labels[k + 3];
    if (dim) ctx.globalAlpha = DIMMED + 0.2;
    ctx.fillText(text, labels[k + 1] + 3, labels[k + 2] + rh / 2);
    if (dim) ctx.globalAlpha = 1;
  }
  // outlines: the selected frame, and the context highlighted from a table
  for (const [i, color] of [[p.highlight, palette.highlight], [p.selected, palette.focus]] as const) {
    if (i < lay.zoom || i >= end || lay.w[i] * width < MIN_WIDTH) continue;
    const y = (tree.depth[i] - base) * rh - p.scrollTop;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.strokeRect(lay.x[i] * width + 1, y + 1, Math.max(lay.w[i] * width - 3, 1), rh - 3);
  }
  return painted;
}
