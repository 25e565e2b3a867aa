import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../server/errors.js';
import { packageRoot } from '../server/version.js';

/** The image `deploy/` runs and the scaffold's Dockerfile starts from (one name, the release's). */
export const IMAGE = 'ghcr.io/modelhooks/modelhooks';

/** Where the image loads compositions from (the Dockerfile's MODELHOOKS_COMPOSITIONS_DIR). */
export const IMAGE_COMPOSITIONS_DIR = '/compositions';

/**
 * The files of the scaffold copied as they are from the package's examples/init/ (tested there
 * with this repository's tests); package.json, the Dockerfile, the README and .gitignore are
 * written here, for they carry the project's name and this package's version.
 */
const COPIED = ['src/greeter.ts', 'src/greeter.test.ts', 'vitest.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'greeter.yaml'];

/** npm's rule for a package name, the part `init` makes of a directory name. */
const projectName = (dir: string) =>
  path
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '') || 'my-compositions';

/** Creates a new composition project in `dir` (new or empty); returns the files written, relative to it. */
export function initProject(dir: string): string[] {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`init: ${dir} is not empty; give a new or empty directory`);
  const { root, pkg } = packageRoot();
  const template = path.join(root, 'examples/init');
  if (!existsSync(template)) throw new Error(`init: the scaffold is missing from the package (${template})`);
  const name = projectName(dir);
  const dev = pkg.devDependencies ?? {};
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name,
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: {
          build: 'tsc -p tsconfig.build.json',
          test: 'tsc --noEmit && vitest run',
          render: 'npm run build && modelhooks render --no-builtin --composition dist/greeter.js greeter.yaml',
          manifests: 'npm run build && modelhooks manifests --no-builtin --composition dist/greeter.js --dir deploy',
        },
        dependencies: { modelhooks: `^${pkg.version}`, zod: pkg.peerDependencies?.zod ?? '^4' },
        devDependencies: { '@types/node': dev['@types/node'] ?? '*', typescript: dev.typescript ?? '^5', vitest: dev.vitest ?? '*' },
      },
      null,
      2,
    )}\n`,
    Dockerfile: dockerfile(pkg.version),
    'README.md': readme(name, pkg.version),
    '.gitignore': 'node_modules/\ndist/\n',
  };
  mkdirSync(dir, { recursive: true });
  for (const file of COPIED) cpSync(path.join(template, file), path.join(dir, file));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return [...Object.keys(files), ...COPIED].sort();
}

function dockerfile(version: string): string {
  return `# syntax=docker/dockerfile:1
# The modelhooks server with this project's compositions: every .js module at the top of
# ${IMAGE_COMPOSITIONS_DIR} is loaded beside the built-in ones (MODELHOOKS_COMPOSITIONS_DIR, set by the base image).
# A compiled composition finds modelhooks/kit and zod in the image; bundle any other dependency.
#   docker build -t registry.example.com/greeter-hooks:0.1.0 .
FROM node:26-alpine AS build
WORKDIR /src
COPY package.json package-lock.json* ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${IMAGE}:${version}
COPY --from=build /src/dist/ ${IMAGE_COMPOSITIONS_DIR}/
`;
}

function readme(name: string, version: string): string {
  return `# ${name}

A composition for [modelhooks](https://www.npmjs.com/package/modelhooks) ${version}: a \`Greeter\`
custom resource becomes a Deployment that answers "Hello, <name>!" and a Service. Made by
\`modelhooks init\`; the modelhooks package's docs/your-composition.md goes the whole way from here
to \`kubectl get greeter\`.

| Command | What it does |
|---|---|
| \`npm test\` | type-checks and runs the tests of \`src/\` (vitest, never the compiled copies in \`dist/\`) |
| \`npm run build\` | compiles \`src/\` (without the tests) to \`dist/\` |
| \`npm run render\` | prints what one sync makes of \`greeter.yaml\`, offline |
| \`npm run manifests\` | writes the CRD and the CompositeController to \`deploy/\`; add \`-- --hook-url http://SERVICE.NAMESPACE.svc\` where your image runs |
| \`docker build -t REGISTRY/greeter-hooks:0.1.0 .\` | the modelhooks image with \`dist/\` in ${IMAGE_COMPOSITIONS_DIR} |

Files: \`src/greeter.ts\` (the composition), \`src/greeter.test.ts\` (its tests), \`greeter.yaml\`
(a Greeter to apply), \`Dockerfile\`. Validating children against their schemas in tests
(\`validateChildren\` of \`modelhooks/testing\`) needs the optional peer \`ajv\`:
\`npm install --save-dev ajv@^8\`.
`;
}
