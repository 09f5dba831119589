# recapwrap shell integration for fish (opt-in). Add to ~/.config/fish/config.fish:
#   source /path/to/recapwrap/shell/recapwrap.fish
# Makes pi, claude, codex, qwen and gemini run through recapwrap, and completes recapwrap's commands.
# Set RECAPWRAP_AGENTS to choose which agents are wrapped (default: all five).
# `command claude …` still runs the agent without recapwrap.

set -l __rw_agents pi claude codex qwen gemini
if set -q RECAPWRAP_AGENTS
    set __rw_agents (string split ' ' -- $RECAPWRAP_AGENTS)
end
for __rw_agent in $__rw_agents
    eval "function $__rw_agent --wraps $__rw_agent; recapwrap $__rw_agent \$argv; end"
end

complete -c recapwrap -f
complete -c recapwrap -n __fish_use_subcommand -a recap -d 'one recap now for a session'
complete -c recapwrap -n __fish_use_subcommand -a transcript -d 'normalized events of a session file'
complete -c recapwrap -n __fish_use_subcommand -a status -d 'latest recap line of a live wrapper'
complete -c recapwrap -n __fish_use_subcommand -a ls -d 'all live wrapped sessions'
complete -c recapwrap -n __fish_use_subcommand -a board -d 'live full-screen view of all sessions'
complete -c recapwrap -n __fish_use_subcommand -a next -d 'jump to the session that has waited longest for you'
complete -c recapwrap -n '__fish_seen_subcommand_from next' -l from -x
complete -c recapwrap -n '__fish_seen_subcommand_from next' -l print
complete -c recapwrap -n __fish_use_subcommand -a resume -d 'past sessions of this directory'
complete -c recapwrap -n __fish_use_subcommand -a config -d 'effective configuration'
complete -c recapwrap -n __fish_use_subcommand -a doctor -d 'check focus support, agents, generators'
complete -c recapwrap -n __fish_use_subcommand -a demo -d 'self-contained demo'
complete -c recapwrap -n __fish_use_subcommand -a 'pi claude codex qwen gemini' -d 'wrap an agent'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l session -r -F
complete -c recapwrap -n '__fish_seen_subcommand_from recap resume transcript' -l agent -x -a 'pi claude codex qwen gemini'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l format -x -a 'line card json'
complete -c recapwrap -n '__fish_seen_subcommand_from recap' -l generator -x -a 'auto heuristic agent openai anthropic'
complete -c recapwrap -n '__fish_seen_subcommand_from ls resume transcript' -l json
