/**
 * The recap layer's contract: the Recap shape every surface shares (DESIGN.md "Recap JSON"), the
 * context a generator sees, and the generator interface. Generators never throw once called.
 */

export type RecapStatus = 'working' | 'waiting' | 'idle' | 'aborted' | 'errored' | 'empty';
export type GeneratorType = 'heuristic' | 'agent' | 'openai' | 'anthropic';
export const GENERATOR_NAMES = ['auto', 'heuristic', 'agent', 'openai', 'anthropic'] as const;
export type GeneratorName = (typeof GENERATOR_NAMES)[number];

export const RECAP_LINE_MAX_CHARS = 220;
export const RECAP_HEADLINE_MAX_CHARS = 80;

export interface RecapArtifact {
  kind: 'file' | 'commit' | 'url' | 'pr' | 'command';
  label: string;
  locator: string;
}

export interface Recap {
  /** `recap: … Next: …`, ≤ 220 chars, one line, no control characters. */
  line: string;
  headline: string;
  done: string[];
  next: string[];
  artifacts: RecapArtifact[];
  status: RecapStatus;
  language: string;
  generator: { type: 'heuristic' } | { type: Exclude<GeneratorType, 'heuristic'>; model: string };
  session: { agent: string; id: string; file: string };
  stamp: string;
  createdAt: string;
}
