// The CLI's commands, their help and their options, as data: main.ts prints the help and
// parses with it, completion.ts writes shell completion from it. Nothing heavy is imported
// here, so `--help`, `init` and `completion` start without the compositions (npm run bench:render).

/** The built-in compositions, by name, as the help names them (test/cli.test.ts checks them against hooks/compositions.ts). */
export const BUILTIN_NAMES = ['trustyai', 'tfserv', 'mlmodel', 'inferenceservice', 'inferencegraph'];

const COMPOSITION_HELP = `
      --composition FILE the compositions a compiled module of yours exports, too (repeatable)
      --no-builtin       without the five built-in compositions (${BUILTIN_NAMES.join(', ')})
    MODELHOOKS_COMPOSITIONS_DIR=DIR adds every .js module at the top of DIR (the image: /compositions).`;

/** Each command: its help, and its options (long names; `values` when the option takes one of a fixed list). */
export const COMMANDS = {
  serve: {
    help: `modelhooks serve [--port N]
    Serves the hooks over HTTP (PORT, default 8080; MODELHOOKS_* variables configure the rest).${COMPOSITION_HELP}`,
    options: ['--port', '--composition', '--no-builtin'],
  },
  render: {
    help: `modelhooks render PARENT.yaml|- [--observed FILE]... [--related FILE]... [--variant NAME[,NAME]]... [--now RFC3339] [--children-only] [-o yaml|json]
    Prints what one sync makes of PARENT, offline: the parent with its new status, then the
    desired children, as a YAML stream (\`-\` reads the parent from stdin).
      --observed FILE    the cluster's state: children (e.g. \`kubectl get … -o yaml\`), and the
                         parent itself, whose status is the previous one (render's own output fits)
      --related FILE     objects the customize hook asks for (e.g. a Tfserv's ConfigMap)
      --variant NAME     a variant of the calling CompositeController: openshift, prometheus,
                         gateway-api, cert-manager; repeat it or give a comma list to combine
                         (default: none)
      --now RFC3339      the clock, e.g. 2026-01-01T00:00:00Z (default: now)
      --children-only    only the children: what \`kubectl apply -f -\` should get
      -o, --output FMT   yaml (a stream of documents, the default) or json (one kind: List, as kubectl prints)
    Any one FILE (or PARENT) may be \`-\`: stdin. Fields the spec's schema does not know are
    named on stderr, each with the nearest known one.${COMPOSITION_HELP}`,
    options: ['--observed', '--related', '--variant', '--now', '--children-only', '--output', '--composition', '--no-builtin'],
  },
  manifests: {
    help: `modelhooks manifests [--check] [--dir DIR] [--hook-url URL]
    Writes (or, with --check, checks) crds/ and compositions/ under DIR (default: .).
      --hook-url URL     where the CompositeControllers call the hooks (default:
                         http://modelhooks.modelhooks-system.svc, the Service deploy/ installs),
                         e.g. http://greeter-hooks.my-team.svc for an image of your own${COMPOSITION_HELP}`,
    options: ['--check', '--dir', '--hook-url', '--composition', '--no-builtin'],
  },
  plan: {
    help: `modelhooks plan DUMP... [--set-config FILE]... [--namespace NS]... [--selector SEL] [--kind KIND]... [-o text|json] [--variant NAME[,NAME]]... [--now RFC3339]
    Replays a sync of every parent in a cluster dump (\`kubectl get … -A -o yaml\`: files, directories
    or - for stdin) as Metacontroller would, and says what it would write: children created,
    updated (field by field), deleted; status changes; Deployments that roll. docs/plan.md.
    Exit code: 0 nothing changes, 2 something changes, 1 an error or a parent that cannot be planned.
      --set-config FILE  objects laid over the dump's: a new inferenceservice-config ConfigMap,
                         a Namespace with new annotations (repeatable)
      --namespace NS     only parents in NS (repeatable)
      --selector SEL     only parents whose labels match SEL (a=b,c!=d,e in (x,y),f,!g)
      --kind KIND        only parents of KIND (kind, plural or composition name; repeatable)
      -o, --output FMT   text (default) or json
      --variant NAME     the CompositeControllers' variants, when the dump holds none of them
      --now RFC3339      the clock (default: now)
    Progress goes to stderr.${COMPOSITION_HELP}`,
    options: ['--set-config', '--namespace', '--selector', '--kind', '--output', '--variant', '--now', '--composition', '--no-builtin'],
  },
  init: {
    help: `modelhooks init DIR
    Creates a composition project in DIR (new or empty): a Greeter composition (a Deployment and
    a Service) with its test, package.json, tsconfig, a vitest config, a Dockerfile FROM the
    modelhooks image and a README. Then: cd DIR && npm install && npm test.`,
    options: [],
  },
  completion: {
    help: `modelhooks completion bash|zsh|fish
    Prints a shell completion script, e.g.
      source <(modelhooks completion bash)                  # bash, in ~/.bashrc
      modelhooks completion zsh > "\${fpath[1]}/_modelhooks"  # zsh
      modelhooks completion fish > ~/.config/fish/completions/modelhooks.fish`,
    options: [],
  },
} as const;

export type CommandName = keyof typeof COMMANDS;

/** Values an option or a command's argument takes from a fixed list, for completion. */
export const CHOICES: Record<string, readonly string[]> = {
  '--output': ['yaml', 'json'],
  '--variant': ['openshift', 'prometheus', 'gateway-api', 'cert-manager'],
  completion: ['bash', 'zsh', 'fish'],
};

export const USAGE = `usage:
${Object.values(COMMANDS)
  .map((c) => `  ${c.help.split('\n')[0]}`)
  .join('\n')}
  modelhooks --version
  modelhooks COMMAND --help    (that command's options)
serve, render, manifests and plan also take --composition FILE (repeatable) and --no-builtin (see --help)`;
