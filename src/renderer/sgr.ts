/**
 * Cell styles as SGR sequences for the host terminal.
 *
 * The emulator resolves every colour to RGB, including the 16 theme colours
 * and the 256-colour palette. Emitting RGB for those would paint a pane's
 * "red" in xterm's red instead of the user's theme red, and would need a
 * truecolor host. So a colour that is exactly a palette entry goes out as that
 * palette index again; only colours a program really gave as RGB go out as RGB.
 */
import { DEFAULT_COLOR } from '../shared/pane-types.js';
import { FLAG_SGR } from '../shared/screen-serializer.js';
import { paletteColor } from '../shared/query-replies.js';

const PALETTE_SIZE = 256;

const paletteIndexByRgb = (() => {
  const map = new Map<number, number>();
  for (let index = PALETTE_SIZE - 1; index >= 0; index--) {
    const [r, g, b] = paletteColor(index);
    map.set((r << 16) | (g << 8) | b, index); // lowest index wins: theme colours before cube duplicates
  }
  return map;
})();

function colorParams(color: number, background: boolean): string {
  if (color === DEFAULT_COLOR) return '';
  const index = paletteIndexByRgb.get(color);
  if (index !== undefined) {
    if (index < 8) return `;${(background ? 40 : 30) + index}`;
    if (index < 16) return `;${(background ? 100 : 90) + index - 8}`;
    return `;${background ? 48 : 38};5;${index}`;
  }
  return `;${background ? 48 : 38};2;${(color >>> 16) & 0xff};${(color >>> 8) & 0xff};${color & 0xff}`;
}

/** One complete SGR that resets and then sets exactly this style. */
export function sgr(fg: number, bg: number, flags: number): string {
  let params = '0';
  for (const [bit, param] of FLAG_SGR) if (flags & bit) params += `;${param}`;
  return `\x1b[${params}${colorParams(fg, false)}${colorParams(bg, true)}m`;
}
