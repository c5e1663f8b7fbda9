/**
 * How a tool is declared: one valibot schema that both validates the arguments
 * and becomes the JSON Schema the server advertises, a description written for
 * the calling model, MCP annotations, and who may call it.
 */
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from './tool-context.js';
import { ToolError } from '../services/tool-error.js';

// Tools import ToolError along with the rest of their kit.
export { ToolError };

export type ToolAccess = 'orchestrator' | 'any';

export interface ToolAnnotations {
  /** Reads state only; safe to call any time. */
  readOnlyHint: boolean;
  /** May end a process or overwrite data. */
  destructiveHint?: boolean;
  /** Calling it twice with the same arguments has no further effect. */
  idempotentHint?: boolean;
}

export interface ToolDefinition<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  title: string;
  description: string;
  schema: S;
  annotations: ToolAnnotations;
  access: ToolAccess;
  run(args: v.InferOutput<S>, context: ToolContext): Promise<CallToolResult>;
}

/** Identity function that keeps each tool's argument type tied to its schema. */
export function defineTool<S extends v.GenericSchema>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

/**
 * A successful result: the structure for programs, and text for the model: the
 * headline, then the body on the lines below. claude and codex show their models
 * only structuredContent, so the headline goes in it too, first, as `summary`.
 */
export function ok(structured: Record<string, unknown>, headline?: string, body?: string): CallToolResult {
  if (headline === undefined) return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
  return { content: [{ type: 'text', text: body === undefined ? headline : `${headline}\n${body}` }], structuredContent: { summary: headline, ...structured } };
}

export function fail(message: string, structured: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: message, ...structured } };
}

/** The MCP tool listing entry, with the JSON Schema derived from the valibot schema. */
export function describeTool(tool: ToolDefinition): Tool {
  const { $schema: _ignored, ...inputSchema } = toJsonSchema(tool.schema, { errorMode: 'ignore' }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: { title: tool.title, openWorldHint: false, ...tool.annotations },
  };
}

/** Validates raw arguments; the error names each bad field and what was received. */
export function parseArguments<S extends v.GenericSchema>(tool: ToolDefinition<S>, raw: unknown): v.InferOutput<S> {
  const result = v.safeParse(tool.schema, raw ?? {});
  if (result.success) return result.output;
  const known = Object.keys((tool.schema as unknown as { entries?: Record<string, unknown> }).entries ?? {});
  const problems = result.issues.map((issue) => {
    const path = v.getDotPath(issue);
    // valibot's wording for these two reads poorly to a model; say what to do instead.
    if (issue.expected === 'never') return `${path}: unknown argument; ${tool.name} takes ${known.join(', ') || 'no arguments'}`;
    if (issue.kind === 'schema' && issue.received === 'undefined') return `${path}: required argument is missing`;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new ToolError(`invalid arguments for ${tool.name}: ${problems.join('; ')}`, { problems });
}
