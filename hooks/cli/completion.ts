import { CHOICES, COMMANDS } from './commands.js';
import { UsageError } from '../server/errors.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
const commands = Object.keys(COMMANDS);
const optionsOf = (command: string) => [...(COMMANDS[command as keyof typeof COMMANDS]?.options ?? []), '--help'];

/** The completion script of one shell: commands, each command's options, and the values of those that take a fixed list. */
export function completionScript(shell: string): string {
  if (shell === 'bash') return bash();
  if (shell === 'zsh') return zsh();
  if (shell === 'fish') return fish();
  throw new UsageError(`completion: give one of ${SHELLS.join(', ')}${shell ? `, not "${shell}"` : ''}`);
}

function bash(): string {
  const cases = commands.map((c) => `    ${c}) opts="${optionsOf(c).join(' ')}" ;;`).join('\n');
  const values = Object.entries(CHOICES)
    .filter(([k]) => k.startsWith('--'))
    .map(([k, v]) => `    ${k === '--output' ? '-o|--output' : k}) COMPREPLY=($(compgen -W "${v.join(' ')}" -- "$cur")); return ;;`)
    .join('\n');
  return `# bash completion for modelhooks: source <(modelhooks completion bash)
_modelhooks() {
  local cur prev cmd opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "$prev" in
${values}
  esac
  if [ "$cmd" = completion ]; then COMPREPLY=($(compgen -W "${CHOICES.completion?.join(' ')}" -- "$cur")); return; fi
  case "$cmd" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _modelhooks modelhooks
`;
}

function zsh(): string {
  const described = commands.map((c) => `'${c}:${(COMMANDS[c as keyof typeof COMMANDS].help.split('\n')[1] ?? '').trim().replace(/'/g, '')}'`).join(' ');
  const arg = (o: string) => (CHOICES[o] ? `'${o}[${o.slice(2)}]:${o.slice(2)}:(${CHOICES[o]?.join(' ')})'` : `'${o}[${o.slice(2)}]:file:_files'`);
  const flags = new Set(['--check', '--no-builtin', '--children-only', '--help']);
  const cases = commands
    .map((c) => {
      const specs = optionsOf(c).map((o) => (flags.has(o) ? `'${o}[${o.slice(2)}]'` : arg(o)));
      const rest = c === 'completion' ? `'1:shell:(${CHOICES.completion?.join(' ')})'` : "'*:file:_files'";
      return `    ${c}) _arguments ${[...specs, rest].join(' ')} ;;`;
    })
    .join('\n');
  return `#compdef modelhooks
# zsh completion for modelhooks: modelhooks completion zsh > "\${fpath[1]}/_modelhooks"
_modelhooks() {
  local -a commands
  commands=(${described})
  if (( CURRENT == 2 )); then _describe 'command' commands; return; fi
  case "$words[2]" in
${cases}
  esac
}
# Autoloaded from fpath: complete now; sourced: register.
if [ "$funcstack[1]" = "_modelhooks" ]; then _modelhooks "$@"; else compdef _modelhooks modelhooks; fi
`;
}

function fish(): string {
  const lines = ['# fish completion for modelhooks: modelhooks completion fish > ~/.config/fish/completions/modelhooks.fish', 'complete -c modelhooks -f'];
  for (const c of commands) {
    const what = (COMMANDS[c as keyof typeof COMMANDS].help.split('\n')[1] ?? '').trim().replace(/'/g, '');
    lines.push(`complete -c modelhooks -n __fish_use_subcommand -a ${c} -d '${what}'`);
    for (const o of optionsOf(c)) {
      const values = CHOICES[o] ? ` -x -a '${CHOICES[o]?.join(' ')}'` : '';
      lines.push(`complete -c modelhooks -n '__fish_seen_subcommand_from ${c}' -l ${o.slice(2)}${values}`);
    }
  }
  lines.push(`complete -c modelhooks -n '__fish_seen_subcommand_from completion' -a '${CHOICES.completion?.join(' ')}'`);
  lines.push("complete -c modelhooks -n '__fish_seen_subcommand_from render manifests serve' -F");
  return `${lines.join('\n')}\n`;
}
