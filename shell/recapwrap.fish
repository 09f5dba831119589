# recapwrap shell integration for fish (opt-in). Add to ~/.config/fish/config.fish:
#   source /path/to/recapwrap/shell/recapwrap.fish
# Makes the agent CLIs you have installed (pi, claude, codex, qwen, gemini) run through recapwrap, and
# completes recapwrap's commands and options. Set RECAPWRAP_AGENTS to choose which agents are wrapped
# (default: all five; an agent that is not installed is never wrapped). `command claude …` still runs
# the agent without recapwrap.

set -l __rw_agents pi claude codex qwen gemini
if set -q RECAPWRAP_AGENTS
    set __rw_agents (string split ' ' -- $RECAPWRAP_AGENTS)
end
for __rw_agent in $__rw_agents
    # `command -q` looks for an executable only, so a wrapper function from an earlier `source` does not count.
    if command -q $__rw_agent
        eval "function $__rw_agent --wraps $__rw_agent; recapwrap $__rw_agent \$argv; end"
    end
end

set -l __rw_subcommands recap next transcript status ls board resume config doctor demo help index sessions search show name forget
set -l __rw_no_sub "not __fish_seen_subcommand_from $__rw_subcommands pi claude codex qwen gemini"

complete -c recapwrap -f
complete -c recapwrap -n $__rw_no_sub -a recap -d 'one recap now: a live pane, a session file, or an agent'
complete -c recapwrap -n $__rw_no_sub -a next -d 'jump to the session that has waited longest for you'
complete -c recapwrap -n $__rw_no_sub -a transcript -d 'normalized events of a session file'
complete -c recapwrap -n $__rw_no_sub -a status -d 'latest recap line of a live wrapper'
complete -c recapwrap -n $__rw_no_sub -a ls -d 'all live wrapped sessions'
complete -c recapwrap -n $__rw_no_sub -a board -d 'live full-screen view of all sessions'
complete -c recapwrap -n $__rw_no_sub -a resume -d 'past sessions of this folder; relaunch one'
complete -c recapwrap -n $__rw_no_sub -a config -d 'effective configuration'
complete -c recapwrap -n $__rw_no_sub -a doctor -d 'check focus support, agents, generators'
complete -c recapwrap -n $__rw_no_sub -a demo -d 'self-contained demo'
complete -c recapwrap -n $__rw_no_sub -a help -d 'help for a command'
complete -c recapwrap -n $__rw_no_sub -a index -d 'bring the session index up to date'
complete -c recapwrap -n $__rw_no_sub -a sessions -d 'past sessions of every agent in every folder'
complete -c recapwrap -n $__rw_no_sub -a search -d 'full-text search over every past session'
complete -c recapwrap -n $__rw_no_sub -a show -d 'one past session card'
complete -c recapwrap -n $__rw_no_sub -a name -d 'give a session your own name'
complete -c recapwrap -n $__rw_no_sub -a forget -d 'delete sessions from the index for good'
complete -c recapwrap -n $__rw_no_sub -a 'pi claude codex qwen gemini' -d 'wrap an agent'

# Wrapper options (before the agent).
complete -c recapwrap -n $__rw_no_sub -l agent -x -a 'pi claude codex qwen gemini' -d 'which agent this is'
complete -c recapwrap -n $__rw_no_sub -l away -x -d 'recap after this many seconds away'
complete -c recapwrap -n $__rw_no_sub -l bar-rows -x -d 'rows the overlay bar may take (1-5)'
complete -c recapwrap -n $__rw_no_sub -l notify -x -a 'auto bell osc tmux none command:' -d 'how to tell you a session needs you'
complete -c recapwrap -n $__rw_no_sub -l idle -x -d 'without focus reports: recap after this long idle'
complete -c recapwrap -n $__rw_no_sub -l display -x -a 'auto overlay tmux none' -d 'where recaps appear'
complete -c recapwrap -n $__rw_no_sub -l position -x -a 'top bottom' -d 'overlay bar row'
complete -c recapwrap -n $__rw_no_sub -l generator -x -a 'auto heuristic agent openai anthropic' -d 'who writes recaps'
complete -c recapwrap -n $__rw_no_sub -l model -x -d 'model for the generators'
complete -c recapwrap -n $__rw_no_sub -l hotkey -x -d 'key that shows a recap now'
complete -c recapwrap -n $__rw_no_sub -l no-focus -d 'leave terminal focus reporting alone'
complete -c recapwrap -n $__rw_no_sub -l no-llm -d 'offline heuristic recaps only'
complete -c recapwrap -n $__rw_no_sub -l tmux-focus -d 'turn on tmux focus-events when off'
complete -c recapwrap -n $__rw_no_sub -l version -d 'show the version'
complete -c recapwrap -l help -d 'show help'

# Subcommand options.
complete -c recapwrap -n '__fish_seen_subcommand_from recap status' -l pane -x -a '(tmux list-panes -a -F "#{pane_id}" 2>/dev/null)' -d 'tmux pane id'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l show -d 'also show the recap in that pane'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l session -r -F -d 'a session file'
complete -c recapwrap -n '__fish_seen_subcommand_from recap resume transcript' -l agent -x -a 'pi claude codex qwen gemini' -d 'which agent'
complete -c recapwrap -n '__fish_seen_subcommand_from recap resume' -l cwd -x -a '(__fish_complete_directories)' -d 'the project folder'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l format -x -a 'line card json' -d 'output format'
complete -c recapwrap -n '__fish_seen_subcommand_from status' -l format -x -a 'plain tmux' -d 'output format'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l generator -x -a 'auto heuristic agent openai anthropic' -d 'who writes the recap'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l model -x -d 'model for the generator'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l no-llm -d 'offline heuristic only'
complete -c recapwrap -n '__fish_seen_subcommand_from recap status' -l width -x -d 'compose for this many cells'
complete -c recapwrap -n '__fish_seen_subcommand_from transcript' -F -d 'session file'
complete -c recapwrap -n '__fish_seen_subcommand_from ls resume transcript config doctor' -l json -d 'print JSON'
complete -c recapwrap -n '__fish_seen_subcommand_from resume' -l list -d 'print the list and exit'
complete -c recapwrap -n '__fish_seen_subcommand_from resume' -l pick -x -d 'resume session N of the list'
complete -c recapwrap -n '__fish_seen_subcommand_from resume' -l limit -x -d 'read at most N sessions'
complete -c recapwrap -n '__fish_seen_subcommand_from resume' -l all -d 'every folder'
complete -c recapwrap -n '__fish_seen_subcommand_from index' -l rebuild -d 're-read every session file'
complete -c recapwrap -n '__fish_seen_subcommand_from index' -l summarize -d 'model summaries of sessions that have only heuristic ones'
complete -c recapwrap -n '__fish_seen_subcommand_from index' -l limit -x -d 'with --summarize: at most N sessions'
complete -c recapwrap -n '__fish_seen_subcommand_from index' -l session -x -d 'with --summarize: only this session'
complete -c recapwrap -n '__fish_seen_subcommand_from index sessions search show name forget' -l json -d 'print JSON'
complete -c recapwrap -n '__fish_seen_subcommand_from sessions search' -l here -d 'this folder and below'
complete -c recapwrap -n '__fish_seen_subcommand_from sessions search forget' -l folder -x -a '(__fish_complete_directories)' -d 'that folder and below'
complete -c recapwrap -n '__fish_seen_subcommand_from sessions search' -l agent -x -a 'pi claude codex qwen gemini' -d 'only this agent'
complete -c recapwrap -n '__fish_seen_subcommand_from sessions search' -l since -x -d 'active in this time: 30m, 12h, 3d, 2w'
complete -c recapwrap -n '__fish_seen_subcommand_from sessions search' -l limit -x -d 'at most N'
complete -c recapwrap -n '__fish_seen_subcommand_from config' -l markdown -d 'print the options table as Markdown'
complete -c recapwrap -n '__fish_seen_subcommand_from doctor' -l no-interactive -d 'do not probe focus reporting'
complete -c recapwrap -n '__fish_seen_subcommand_from doctor' -l endpoints -d 'also contact the model endpoint'
complete -c recapwrap -n '__fish_seen_subcommand_from demo' -l here -d 'run in this terminal or pane'
complete -c recapwrap -n '__fish_seen_subcommand_from next' -l from -x -a '(tmux list-panes -a -F "#{pane_id}" 2>/dev/null)' -d 'the pane you are in'
complete -c recapwrap -n '__fish_seen_subcommand_from next' -l print -d 'print the card, do not jump'
complete -c recapwrap -n '__fish_seen_subcommand_from help' -x -a "$__rw_subcommands"
