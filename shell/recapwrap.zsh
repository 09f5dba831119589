# recapwrap shell integration for zsh (opt-in). Add to ~/.zshrc:
#   source /path/to/recapwrap/shell/recapwrap.zsh
# Makes pi, claude, codex, qwen and gemini run through recapwrap, and completes recapwrap's commands.
# Set RECAPWRAP_AGENTS to choose which agents are wrapped (default: all five).
# `command claude …` still runs the agent without recapwrap.

for __rw_agent in ${=RECAPWRAP_AGENTS:-pi claude codex qwen gemini}; do
  eval "${__rw_agent}() { recapwrap ${__rw_agent} \"\$@\" }"
done
unset __rw_agent

_recapwrap() {
  local -a commands
  commands=(
    'recap:one recap now for a session'
    'transcript:normalized events of a session file'
    'status:latest recap line of a live wrapper'
    'ls:all live wrapped sessions'
    'board:live full-screen view of all sessions'
    'next:jump to the session that has waited longest for you'
    'resume:past sessions of this directory'
    'config:effective configuration'
    'doctor:check focus support, agents, generators'
    'demo:self-contained demo'
    'pi:wrap pi' 'claude:wrap Claude Code' 'codex:wrap Codex' 'qwen:wrap Qwen Code' 'gemini:wrap Gemini CLI'
  )
  if (( CURRENT == 2 )); then
    _describe 'recapwrap command' commands
  else
    _files
  fi
}
(( $+functions[compdef] )) && compdef _recapwrap recapwrap
