/**
 * Which approvals an orchestrator may give on its own (conservative: anything
 * risky goes to the human), from the "permissions" section of $XDG_CONFIG_HOME/patterm/config.json:
 *
 *   { "permissions": { "enabled": true, "allow": ["^\\s*(git (status|diff|log)|ls)\\b"], "deny": ["…"] } }
 *
 * Off by default. When on, an approval sent to a child's permission dialog is
 * checked against the dialog's text: a "deny" match refuses it, then an
 * "allow" match lets it through, and anything else is refused so a person
 * decides. "deny" defaults to DEFAULT_DENY: writes that destroy, privilege,
 * the network, package installs. A broken entry is dropped and reported; the
 * policy stays on with what is left, so a typo never lets more through.
 * The patterns run through the pattern matcher under its time budget: one
 * that runs past it refuses the approval, naming the pattern and the budget.
 */
import * as v from 'valibot';
import { compilePattern } from '../../../shared/pattern.js';
import { patternMatcher, type LabelledPattern, type PatternMatcher } from '../../../node/pattern-matcher.js';

/** The flags every policy pattern is matched with: commands differ in case across shells and CLIs. */
const POLICY_FLAGS = 'i';

export interface PermissionPolicy {
  enabled: boolean;
  /** Checked patterns, each named by its config entry ("permissions.allow.0"). */
  allow: LabelledPattern[];
  deny: LabelledPattern[];
}

export type PolicyDecision = { allowed: true; reason: string } | { allowed: false; reason: string };

/** Deletes, sudo, network, credentials, package installs and broad shell commands go to the human. */
export const DEFAULT_DENY: readonly string[] = [
  String.raw`\brm\s`,
  String.raw`\b(?:sudo|su|doas)\b`,
  String.raw`\b(?:curl|wget|nc|ncat|ssh|scp|rsync)\b`,
  String.raw`\b(?:npm|pnpm|yarn|pip3?|apt(?:-get)?|brew|cargo|gem|go)\s+(?:install|add|i|get)\b`,
  String.raw`\b(?:chmod|chown|mkfs|dd|shred|truncate)\b`,
  String.raw`\bgit\s+(?:push|reset|clean|checkout\s+--)\b`,
  String.raw`(?:\.ssh|\.aws|\.netrc|id_rsa|\.env\b|credentials|secret|token)`,
];

export const POLICY_OFF: PermissionPolicy = { enabled: false, allow: [], deny: [] };

const PolicySchema = v.strictObject({
  enabled: v.boolean(),
  allow: v.optional(v.array(v.string())),
  deny: v.optional(v.array(v.string())),
});

export function parsePermissionPolicy(section: unknown): { policy: PermissionPolicy; problems: string[] } {
  if (section === undefined) return { policy: POLICY_OFF, problems: [] };
  const parsed = v.safeParse(PolicySchema, section);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `permissions.${v.getDotPath(issue) ?? ''}: ${issue.message}`.replace(/\.: /, ': '));
    // Fail closed: a policy the user meant to turn on stays on, allowing nothing.
    const meantOn = typeof section === 'object' && section !== null && (section as Record<string, unknown>).enabled === true;
    return { policy: meantOn ? { enabled: true, allow: [], deny: compileAll(DEFAULT_DENY, 'deny', []) } : POLICY_OFF, problems };
  }
  const problems: string[] = [];
  const { enabled, allow = [], deny = DEFAULT_DENY } = parsed.output;
  return { policy: { enabled, allow: compileAll(allow, 'allow', problems), deny: compileAll(deny, 'deny', problems) }, problems };
}

function compileAll(patterns: readonly string[], field: string, problems: string[]): LabelledPattern[] {
  const compiled: LabelledPattern[] = [];
  patterns.forEach((pattern, index) => {
    try {
      compilePattern(pattern, POLICY_FLAGS);
      compiled.push({ field: `permissions.${field}.${index}`, pattern, flags: POLICY_FLAGS });
    } catch (error) {
      problems.push(`permissions.${field}.${index}: ${(error as Error).message}; this entry is ignored`);
    }
  });
  return compiled;
}

/** Whether an approval of the dialog showing `dialogText` may go through; a pattern that overruns its budget refuses it. */
export async function decideApproval(policy: PermissionPolicy, dialogText: string, matcher: PatternMatcher = patternMatcher()): Promise<PolicyDecision> {
  if (!policy.enabled) return { allowed: true, reason: 'the permission policy is off' };
  const denied = await matcher.firstMatching(policy.deny, dialogText);
  if (!denied.ok) return { allowed: false, reason: `the dialog could not be checked against the deny patterns: ${denied.problem}` };
  if (denied.value >= 0) return { allowed: false, reason: `the dialog matches the deny pattern ${JSON.stringify(policy.deny[denied.value].pattern)}` };
  const allowed = await matcher.firstMatching(policy.allow, dialogText);
  if (!allowed.ok) return { allowed: false, reason: `the dialog could not be checked against the allow patterns: ${allowed.problem}` };
  if (allowed.value >= 0) return { allowed: true, reason: `the dialog matches the allow pattern ${JSON.stringify(policy.allow[allowed.value].pattern)}` };
  return { allowed: false, reason: policy.allow.length === 0 ? 'the policy allows no approvals' : 'the dialog matches no allow pattern' };
}
