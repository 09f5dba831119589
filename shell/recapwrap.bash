# recapwrap shell integration for bash (opt-in). Add to ~/.bashrc:
#   source /path/to/recapwrap/shell/recapwrap.bash
# Makes pi, claude, codex, qwen and gemini run through recapwrap, and completes recapwrap's commands.
# Set RECAPWRAP_AGENTS to choose which agents are wrapped (default: all five).
# `command claude …` still runs the agent without recapwrap.

for __rw_agent in ${RECAPWRAP_AGENTS:-pi claude codex qwen gemini}; do
  eval "${__rw_agent}() { recapwrap ${__rw_agent} \"\$@\"; }"
done
unset __rw_agent

_recapwrap_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "recap transcript status ls board next resume config doctor demo pi claude codex qwen gemini --help --version" -- "$cur"))
    return
  fi
  case "${COMP_WORDS[1]}" in
    recap) COMPREPLY=($(compgen -W "--session --agent --cwd --format --generator --model --help" -- "$cur")) ;;
    transcript) COMPREPLY=($(compgen -f -W "--agent --json --help" -- "$cur")) ;;
    status) COMPREPLY=($(compgen -W "--pane --format --help" -- "$cur")) ;;
    ls) COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
    next) COMPREPLY=($(compgen -W "--from --print --help" -- "$cur")) ;;
    resume) COMPREPLY=($(compgen -W "--agent --list --json --pick --help" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _recapwrap_complete recapwrap
