# recapwrap shell integration for zsh (opt-in). Add to ~/.zshrc:
#   source /path/to/recapwrap/shell/recapwrap.zsh
# Makes the agent CLIs you have installed (pi, claude, codex, qwen, gemini) run through recapwrap, and
# completes recapwrap's commands and options. Set RECAPWRAP_AGENTS to choose which agents are wrapped
# (default: all five; an agent that is not installed is never wrapped). `command claude …` still runs
# the agent without recapwrap.

for __rw_agent in ${=RECAPWRAP_AGENTS:-pi claude codex qwen gemini}; do
  # $commands holds executables on PATH only, so a wrapper function from an earlier `source` does not count.
  if (( $+commands[$__rw_agent] )); then
    eval "${__rw_agent}() { recapwrap ${__rw_agent} \"\$@\" }"
  fi
done
unset __rw_agent

_recapwrap() {
  local context state state_descr line
  typeset -A opt_args
  local -a subcommands agents
  subcommands=(
    'recap:one recap now: a live pane, a session file, or an agent'"'"'s newest session'
    'next:jump to the session that has waited longest for you'
    'transcript:normalized events of a session file'
    'status:latest recap line of a live wrapper'
    'ls:all live wrapped sessions'
    'board:live full-screen view of all sessions'
    'resume:past sessions of this folder; relaunch one'
    'config:effective configuration'
    'doctor:check focus support, agents, generators'
    'demo:self-contained demo'
    'help:help for a command'
    'index:bring the session index up to date'
    'sessions:past sessions of every agent in every folder'
    'search:full-text search over every past session'
    'show:one past session'"'"'s card'
    'name:give a session your own name'
    'forget:delete sessions from the index for good'
  )
  agents=('pi:wrap pi' 'claude:wrap Claude Code' 'codex:wrap Codex' 'qwen:wrap Qwen Code' 'gemini:wrap Gemini CLI')
  local agent_ids='(pi claude codex qwen gemini)'
  local -a root_opts
  root_opts=(
    "--agent[which agent this is]:agent:$agent_ids"
    '--away[recap after this long away]:seconds:'
    '--bar-rows[rows the overlay bar may take]:rows:'
    '--notify[how to tell you a session needs you]:channels:(auto bell osc tmux none)'
    '--idle[without focus reports: recap after this long idle]:seconds:'
    '--display[where recaps appear]:where:(auto overlay tmux none)'
    '--position[overlay bar row]:row:(top bottom)'
    '--generator[who writes recaps]:name:(auto heuristic agent openai anthropic)'
    '--model[model for the generators]:model:'
    '--hotkey[key that shows a recap now]:key:'
    '--no-focus[leave terminal focus reporting alone]'
    '--no-llm[offline heuristic recaps only]'
    '--tmux-focus[turn on tmux focus-events when off]'
    '(- *)--help[show help]'
    '(- *)--version[show the version]'
  )
  # The subcommand (or wrapped command): the first word that is neither an option nor an option's value.
  local i=2 sub=
  while (( i < CURRENT )); do
    case ${words[i]} in
      --agent|--away|--idle|--display|--position|--generator|--model|--hotkey|--bar-rows|--notify) (( i += 2 )) ;;
      -*) (( i++ )) ;;
      *) sub=${words[i]}; break ;;
    esac
  done
  if [[ -z $sub ]]; then
    if [[ $PREFIX == -* || ${words[CURRENT-1]} == --(agent|away|idle|display|position|generator|model|hotkey|bar-rows|notify) ]]; then
      _arguments -s $root_opts
    else
      _describe -t commands 'recapwrap command' subcommands
      _describe -t agents 'agent' agents
    fi
    return
  fi
  # Complete the subcommand's own options as if it were the command.
  words=(${words[i,-1]})
  (( CURRENT -= i - 1 ))
  case $sub in
    recap)
      _arguments \
        '--pane[a live recapwrap'"'"'s tmux pane]:pane:->panes' \
        '--show[also show the recap in that pane]' \
        '--session[a session file]:file:_files' \
        "--agent[which agent]:agent:$agent_ids" \
        '--cwd[the project folder]:dir:_directories' \
        '--format[output format]:format:(line card json)' \
        '--generator[who writes the recap]:name:(auto heuristic agent openai anthropic)' \
        '--model[model for the generator]:model:' \
        '--no-llm[offline heuristic only]' \
        '--width[compose for this many cells]:cells:' \
        '--help[show help]'
      [[ $state == panes ]] && compadd -- ${(f)"$(tmux list-panes -a -F '#{pane_id}' 2>/dev/null)"} ;;
    next) _arguments '--from[the pane you are in]:pane:' '--print[print the card, do not jump]' '--help[show help]' ;;
    transcript) _arguments "--agent[which agent]:agent:$agent_ids" '--json[one JSON object]' '--help[show help]' '1:session file:_files' ;;
    status) _arguments '--pane[tmux pane id]:pane:' '--format[output format]:format:(plain tmux)' '--width[compose for this many cells]:cells:' '--help[show help]' ;;
    ls) _arguments '--json[print JSON]' '--help[show help]' ;;
    board) _arguments '--help[show help]' ;;
    resume) _arguments "--agent[only this agent]:agent:$agent_ids" '--cwd[the project folder]:dir:_directories' '--all[every folder]' '--list[print the list and exit]' '--json[print the list as JSON]' '--pick[resume session N]:n:' '--limit[read at most N sessions]:n:' '--help[show help]' '1:query:' ;;
    config) _arguments '--json[print JSON]' '--markdown[print the options table as Markdown]' '--help[show help]' ;;
    doctor) _arguments '--no-interactive[do not probe focus reporting]' '--endpoints[also contact the model endpoint]' '--json[print JSON]' '--help[show help]' ;;
    demo) _arguments '--here[run in this terminal or pane]' '--help[show help]' ;;
    index) _arguments '--rebuild[re-read every session file]' '--json[print JSON]' '--summarize[model summaries of sessions that have only heuristic ones]' '--limit[with --summarize: at most N sessions]:n:' '--session[with --summarize: only this session]:session:' '--generator[with --summarize: who writes them]:generator:(auto agent openai anthropic)' '--model[with --summarize: the model]:model:' '--no-llm[send nothing]' '--help[show help]' ;;
    sessions|search) _arguments '--here[this folder and below]' '--folder[that folder and below]:dir:_directories' "--agent[only this agent]:agent:$agent_ids" '--since[active in this time (3d)]:age:' '--limit[at most N]:n:' '--json[print JSON]' '--help[show help]' '1:query:' ;;
    show|name) _arguments '--json[print JSON]' '--help[show help]' '1:session:' ;;
    forget) _arguments '--folder[every session of that folder and below]:dir:_directories' '--json[print JSON]' '--help[show help]' '1:session:' ;;
    help) _describe -t commands 'recapwrap command' subcommands ;;
    *) _files ;;
  esac
}
(( $+functions[compdef] )) && compdef _recapwrap recapwrap
