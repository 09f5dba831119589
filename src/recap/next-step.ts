/**
 * The next step as a recap shows it: specific or not at all. A step that names no object ("review and
 * commit", "let it finish", "nothing pending", "retry after the rate limit resets") carries no fact and
 * is left out so its cells go to the outcome; a step the agent worded ("Next I would document it in the
 * README — want me to?") is said once, as the decision it asks for. Pure string work.
 */

// Steps that fit any session: they name no file, command, question or object of the work.
const GENERIC = [
  /^(review|check) (it|the changes?|the diff)?\s*(and|then) (commit|run the tests|test)( it)?$/i,
  /^review and run the tests$/i,
  /^(let it|wait for it to) finish$/i,
  /^wait for (the|an) (answer|reply)$/i,
  /^nothing (pending|to do|left)$/i,
  /^(none|n\/a|-)$/i,
  /^retry( later| after the rate limit resets| once the api responds)?$/i,
  /^(ask the agent to|tell the agent to|let the agent) (continue|go on)$/i,
  /^check whether it finished,? then ask the agent to continue$/i,
  /^say how to go on,? or repeat the request$/i,
  /^the agent acts on your reply$/i,
  /^answer the agent[’']s question$/i,
  /^fix the provider problem,? then retry$/i,
  /^(continue|go on|carry on|keep going)( the work)?$/i,
];

/** A next step that would fit any session (it names nothing of this one). */
export function isGenericNext(step: string | undefined): boolean {
  const s = (step ?? '').trim().replace(/[.!。]+$/u, '');
  return !s || GENERIC.some((re) => re.test(s));
}

/**
 * The agent's proposal as the step, said once: no leading "Next"/"Next step:" (the recap writes `Next:`
 * itself), and "I would X — want me to?" as "ok to X?" so the question survives a cut.
 */
export function tidyNext(step: string): string {
  let s = step.trim();
  const offer = /^(?:next,?\s+|then,?\s+)?I(?:'d| would| could| can| will|'ll) (?:next |then |also )?(.+?)\s*(?:[—–-]|,|;)\s*(?:do you )?(?:want me to|shall I|should I|ok)\??$/i.exec(s);
  if (offer?.[1]) return `ok to ${offer[1]}?`;
  s = s.replace(/^(?:the\s+)?next(?:\s+steps?)?\s*[:,—-]\s*/i, '').replace(/^next,?\s+(?=I\b)/i, '');
  s = s.replace(/^next\s+(?=I (?:would|'d|could|can|will|'ll)\b)/i, '');
  return s;
}

/** The step to show: tidied, or '' when it is generic. */
export function specificNext(step: string | undefined): string {
  if (!step) return '';
  const s = tidyNext(step);
  return isGenericNext(s) ? '' : s;
}
