# recapwrap shell integration for bash (opt-in). Add to ~/.bashrc:
#   source /path/to/recapwrap/shell/recapwrap.bash
# Makes the agent CLIs you have installed (pi, claude, codex, qwen, gemini) run through recapwrap, and
# completes recapwrap's commands and options. Set RECAPWRAP_AGENTS to choose which agents are wrapped
# (default: all five; an agent that is not installed is never wrapped). `command claude …` still runs
# the agent without recapwrap.

for __rw_agent in ${RECAPWRAP_AGENTS:-pi claude codex qwen gemini}; do
  # type -P looks on PATH only, so a wrapper function from an earlier `source` does not count.
  if type -P "$__rw_agent" >/dev/null 2>&1; then
    eval "${__rw_agent}() { recapwrap ${__rw_agent} \"\$@\"; }"
  fi
done
unset __rw_agent

_recapwrap_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=
  [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
  local agents="pi claude codex qwen gemini"
  local commands="recap next transcript status ls board resume config doctor demo help index sessions search show name forget"
  local root_opts="--agent --away --idle --display --position --generator --model --hotkey --bar-rows --notify --no-focus --no-llm --tmux-focus --help --version"
  # The subcommand (or wrapped command): the first word that is neither an option nor an option's value.
  local i=1 sub= w
  while [ "$i" -lt "$COMP_CWORD" ]; do
    w=${COMP_WORDS[i]}
    case $w in
      --agent|--away|--idle|--display|--position|--generator|--model|--hotkey|--bar-rows|--notify) i=$((i + 2)) ;;
      -*) i=$((i + 1)) ;;
      *) sub=$w; break ;;
    esac
  done
  # Values of options.
  case $prev in
    --agent) COMPREPLY=($(compgen -W "$agents" -- "$cur")); return ;;
    --format)
      if [ "$sub" = status ]; then COMPREPLY=($(compgen -W "plain tmux" -- "$cur")); else COMPREPLY=($(compgen -W "line card json" -- "$cur")); fi
      return ;;
    --generator) COMPREPLY=($(compgen -W "auto heuristic agent openai anthropic" -- "$cur")); return ;;
    --display) COMPREPLY=($(compgen -W "auto overlay tmux none" -- "$cur")); return ;;
    --position) COMPREPLY=($(compgen -W "top bottom" -- "$cur")); return ;;
    --session) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --cwd|--folder) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --pane) COMPREPLY=($(compgen -W "$(tmux list-panes -a -F '#{pane_id}' 2>/dev/null)" -- "$cur")); return ;;
    --from) COMPREPLY=($(compgen -W "$(tmux list-panes -a -F '#{pane_id}' 2>/dev/null)" -- "$cur")); return ;;
    --notify) COMPREPLY=($(compgen -W "auto bell osc tmux none command:" -- "$cur")); return ;;
    --away|--idle|--model|--hotkey|--bar-rows|--pick|--limit|--width|--since) COMPREPLY=(); return ;;
  esac
  if [ -z "$sub" ]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "$root_opts" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$commands $agents" -- "$cur"))
    fi
    return
  fi
  local opts
  case $sub in
    recap) opts="--pane --show --session --agent --cwd --format --generator --model --no-llm --width --help" ;;
    next) opts="--from --print --help" ;;
    transcript) opts="--agent --json --help" ;;
    status) opts="--pane --format --width --help" ;;
    ls) opts="--json --help" ;;
    board) opts="--help" ;;
    resume) opts="--agent --cwd --all --list --json --pick --limit --help" ;;
    index) opts="--rebuild --json --summarize --limit --session --generator --model --no-llm --help" ;;
    sessions|search) opts="--here --folder --agent --since --limit --json --help" ;;
    show|name) opts="--json --help" ;;
    forget) opts="--folder --json --help" ;;
    config) opts="--json --markdown --help" ;;
    doctor) opts="--no-interactive --endpoints --json --help" ;;
    demo) opts="--here --help" ;;
    help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
    *) COMPREPLY=($(compgen -f -- "$cur")); return ;; # a wrapped agent: its own arguments
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [ "$sub" = transcript ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=()
  fi
}
complete -F _recapwrap_complete recapwrap
