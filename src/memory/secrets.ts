/**
 * Masks known secret shapes (API keys, tokens, private-key blocks, passwords in assignments) before any
 * text reaches the index: what is masked is never stored, so it can be neither found nor leaked. Pure.
 */

const MASK = '[secret]';

// Each shape is masked whole; a value that merely looks random is left alone (no entropy guessing).
const SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  /\b[Bb]earer\s+[A-Za-z0-9._~+/-]{12,}=*/g,
  /\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp):\/\/[^:\s/@]+:[^@\s]+@/g, // credentials in a URL
];

// `API_KEY=…`, `"password": "…"`, `aws_secret_access_key = …`: the value after a secret-sounding name.
const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:api[_-]?key|secret(?:[_-]?access)?[_-]?key|secret|token|passw(?:or)?d|passwd|credential|private[_-]?key|auth)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([^\s"'`,;]{8,})/gi;

/** The text with every known secret shape replaced by `[secret]`. */
export function maskSecrets(text: string): string {
  if (!text) return text;
  let out = text;
  for (const shape of SHAPES) out = out.replace(shape, MASK);
  return out.replace(ASSIGNMENT, (whole, name: string, sep: string, value: string) => (value === MASK || value.startsWith('[secret]') ? whole : `${name}${sep}${MASK}`));
}
