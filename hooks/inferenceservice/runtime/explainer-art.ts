import type { Parent } from '../../kit/index.js';
import type { ArtDefaults } from '../config.js';
import { HTTP_PORT, SERVER_CONTAINER } from '../names.js';
import type { ContainerSpec } from '../spec.js';
import { MODEL_DIR } from '../storage/storage-plan.js';

/*
 * KServe v0.20.0's ART explainer (pkg/apis/serving/v1beta1/explainer_art.go): a container of
 * the adversarial-robustness server, its image from the `explainers.art` entry of
 * inferenceservice-config, arguments in KServe's order.
 */

/** spec.explainer.art: the explainer's fields and a container's (ExplainerExtensionSpec inlines corev1.Container). */
export interface ArtSpec extends ContainerSpec {
  type?: string;
  storageUri?: string;
  runtimeVersion?: string;
  config?: Record<string, string>;
}

/** The ART fields that are not a container's. */
const ART_ONLY = ['type', 'storageUri', 'runtimeVersion', 'config', 'storage'] as const;

/**
 * GetContainer: --model_name, --http_port 8080, --predictor_host (unless the user passes it),
 * --workers from containerConcurrency (unless passed), --storage_uri /mnt/models with a
 * storageUri, --adversary_type, each config entry as --<key> <value> in sorted key order, then
 * the user's arguments. KServe appends the user's arguments twice (`args = append(args,
 * s.Args...)`, then `s.Args = append(args, s.Args...)`); here they come once. The image is the
 * user's, else `<explainers.art.image>:<runtimeVersion, else defaultImageVersion>` (Default).
 */
export function artContainer(
  parent: Parent<unknown>,
  art: ArtSpec,
  containerConcurrency: number | undefined,
  defaults: ArtDefaults,
  predictorHost: string,
): ContainerSpec {
  const user = art.args ?? [];
  const has = (flag: string) => user.some((a) => a === flag || a.startsWith(flag));
  const args = ['--model_name', parent.metadata.name, '--http_port', String(HTTP_PORT)];
  if (!has('--predictor_host')) args.push('--predictor_host', predictorHost);
  if (containerConcurrency !== undefined && !has('--workers')) args.push('--workers', String(containerConcurrency));
  if (art.storageUri) args.push('--storage_uri', MODEL_DIR);
  args.push('--adversary_type', art.type ?? '');
  const config = art.config ?? {};
  // sort.Strings: byte order, which is UTF-16 code-unit order for the ASCII keys flags have.
  for (const key of Object.keys(config).sort()) args.push(`--${key}`, String(config[key]));
  args.push(...user);
  const container = Object.fromEntries(Object.entries(art).filter(([k]) => !(ART_ONLY as readonly string[]).includes(k))) as ContainerSpec;
  const tag = art.runtimeVersion ?? defaults.defaultImageVersion;
  const image = art.image || (tag ? `${defaults.image}:${tag}` : defaults.image);
  return { ...container, name: SERVER_CONTAINER, image, args };
}
