/**
 * The part of the session memory (src/app/memory/api.ts, /work contract "SessionMemory") the MCP server
 * uses: read-only calls plus refresh. A narrow port so the tool layer can be tested with a small fake.
 */
import type { AgentId } from '../../transcripts/types.js';

export interface SessionRow {
  id: string; agent: AgentId; cwd: string; project: string;
  name: string; title?: string; headline: string;
  createdAt: string; updatedAt: string;
  transcript: string; transcriptExists: boolean;
  model?: string; gitBranch?: string; parent?: string;
  counts: { prompts: number; turns: number; toolCalls: number };
  status: string; tags: string[];
  generator: { type: string; model?: string };
  userNamed: boolean;
}
export interface SessionCard extends SessionRow {
  done: string[]; next: string[];
  artifacts: { kind: string; label: string; locator: string }[];
  description?: string; summary?: string;
  resumeCommand: string[];
}
export interface SearchHit extends SessionRow { snippet: string; score: number }
export interface SessionFilter { agent?: AgentId; folder?: string; since?: number; limit?: number }
export type RefResult =
  | { ok: true; row: SessionRow }
  | { ok: false; kind: 'none' | 'ambiguous'; candidates: SessionRow[] };

export interface McpMemory {
  refresh(opts?: { rebuild?: boolean }): Promise<unknown>;
  list(filter?: SessionFilter): SessionRow[];
  search(query: string, filter?: SessionFilter): SearchHit[];
  resolve(ref: string): RefResult;
  card(id: string): SessionCard | undefined;
  passages(id: string, question: string, limit?: number): string[];
  condensedText(id: string): string;
  close(): void;
}
