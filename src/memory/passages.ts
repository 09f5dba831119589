/** The lines of a session's condensed text most relevant to a question (MCP `query_session` without a model). Pure. */
import { queryWords } from './fts-query.js';

export function relevantPassages(text: string, question: string, limit = 8): string[] {
  const words = queryWords(question.toLowerCase()).filter((w) => w.length > 2);
  const lines = text.split('\n').filter((l) => l.trim());
  if (words.length === 0) return lines.slice(-limit);
  const scored = lines.map((line, i) => {
    const lower = line.toLowerCase();
    return { i, line, score: words.reduce((n, w) => n + (lower.includes(w) ? 1 : 0), 0) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || b.i - a.i)
    .slice(0, limit)
    .sort((a, b) => a.i - b.i)
    .map((s) => s.line);
}
