/** The small part of terminal-kit (CommonJS, untyped) that the renderer uses. */
declare module 'terminal-kit' {
  interface TerminalKit {
    /** Display width of a string in terminal cells (wide CJK and emoji count 2, combining marks 0). */
    stringWidth(text: string): number;
  }
  const termkit: TerminalKit;
  export default termkit;
}

declare module 'terminal-kit/lib/termconfig/xterm.js' {
  /** Key name (e.g. "CTRL_K", "UP", "SHIFT_F5") → the byte sequence(s) an xterm-compatible terminal sends. */
  const xterm: { keymap: Record<string, string | string[] | Record<string, unknown>> };
  export default xterm;
}
