/** The small part of terminal-kit (CommonJS, untyped) that the renderer uses. */
declare module 'terminal-kit/lib/misc.js' {
  /** Display width of a string in terminal cells (wide CJK and emoji count 2, combining marks 0). */
  export function stringWidth(text: string): number;
}
