/**
 * `patterm mcp [--project DIR]`: the command line, checked. cli.ts splits it
 * into flags; this says what they must be, and each problem names the flag
 * and the value received.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as v from 'valibot';

export interface McpCommandOptions {
  /** The project the session works in: scratchpads, relative working dirs. */
  projectDir: string;
}

function directorySchema(flag: string, cwd: string) {
  return v.pipe(
    v.string(),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = directoryProblem(resolve(cwd, dataset.value));
      if (problem) addIssue({ message: `${flag} ${JSON.stringify(dataset.value)}: ${problem}` });
    }),
    v.transform((path) => resolve(cwd, path)),
  );
}

function directoryProblem(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : 'is not a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such directory' : `cannot be read (${code ?? (error as Error).message})`;
  }
}

/** The options, or the problems (one line each) for a usage error. */
export function parseMcpFlags(flags: Record<string, string>, cwd: string = process.cwd()): McpCommandOptions | { error: string } {
  const schema = v.strictObject({ project: v.optional(directorySchema('--project', cwd)) });
  const parsed = v.safeParse(schema, flags);
  if (!parsed.success) return { error: parsed.issues.map((issue) => issue.message).join('; ') };
  return { projectDir: parsed.output.project ?? cwd };
}
