/**
 * `svcctl completion bash|zsh`: a completion script for the shell — commands, flags, and resource types read from
 * the server (`svcctl api-resources -o name`) when completing a command's first argument.
 */
import { flagNames } from '../flags.js';
import { error, type CliIo } from '../session.js';

/** The commands svcctl completes. */
export const commandNames = [
  'annotate', 'api-resources', 'api-versions', 'apply', 'auth', 'certificate', 'completion', 'config', 'create', 'delete',
  'describe', 'edit', 'explain', 'get', 'label', 'patch', 'replace', 'scale', 'version', 'wait',
] as const;

function bash(): string {
  return `# bash completion for svcctl; load with: source <(svcctl completion bash)
_svcctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local commands="${commandNames.join(' ')}"
  local flags="${flagNames.map((f) => `--${f}`).join(' ')}"
  if [[ "\${cur}" == -* ]]; then
    COMPREPLY=( $(compgen -W "\${flags}" -- "\${cur}") )
  elif [[ \${COMP_CWORD} -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "\${commands}" -- "\${cur}") )
  elif [[ \${COMP_CWORD} -eq 2 ]]; then
    local types
    types=$(svcctl api-resources -o name 2>/dev/null | sed 's/\\..*//')
    COMPREPLY=( $(compgen -W "\${types}" -- "\${cur}") )
  fi
}
complete -F _svcctl svcctl
`;
}

function zsh(): string {
  return `#compdef svcctl
# zsh completion for svcctl; load with: source <(svcctl completion zsh)
_svcctl() {
  local -a commands flags types
  commands=(${commandNames.join(' ')})
  flags=(${flagNames.map((f) => `--${f}`).join(' ')})
  if [[ "$words[CURRENT]" == -* ]]; then
    compadd -- $flags
  elif (( CURRENT == 2 )); then
    compadd -- $commands
  elif (( CURRENT == 3 )); then
    types=(\${(f)"$(svcctl api-resources -o name 2>/dev/null | sed 's/\\..*//')"})
    compadd -- $types
  fi
}
compdef _svcctl svcctl
`;
}

/** Runs `completion SHELL`. */
export function cmdCompletion(io: CliIo, args: string[]): number {
  const shell = args[0];
  if (shell === 'bash') io.stdout(bash());
  else if (shell === 'zsh') io.stdout(zsh());
  else return error(io, shell === undefined ? 'Shell not specified.' : `Unsupported shell type "${shell}".`);
  return 0;
}
