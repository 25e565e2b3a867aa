import type { V1Container, V1ServicePort } from '@kubernetes/client-node';
import type { SpecProblem } from '../../kit/index.js';
import { AGENT_PORT, frontedContainer } from '../pod/agent.js';
import { HTTP_PORT, SERVICE_PORT } from '../names.js';
import { FRAMEWORK_KEYS, modelOf, type ComponentName, type ContainerSpec, type InferenceServiceSpec } from '../spec.js';

/*
 * A component's Service ports as KServe v0.20.0's raw Service reconciler builds them
 * (pkg/controller/v1beta1/inferenceservice/reconcilers/service/service_reconciler.go,
 * createDefaultSvc): every port of the fronted container (a collocated transformer, else the
 * first container); the first one as port 80, the others on their own numbers; a port whose
 * name contains `grpc` or `h2c` gets appProtocol kubernetes.io/h2c; with a logger or a batcher
 * the first port targets the agent (9081).
 */

export const H2C_APP_PROTOCOL = 'kubernetes.io/h2c';

/** isGrpcPort: the port's name contains `grpc` or `h2c`. */
export const isGrpcPortName = (name: string | undefined) => !!name && (name.includes('grpc') || name.includes('h2c'));

export function servicePortsFor(containers: V1Container[], serviceName: string, viaAgent: boolean): V1ServicePort[] {
  const ports = frontedContainer(containers)?.ports ?? [];
  const appProtocol = (name: string | undefined) => (isGrpcPortName(name) ? { appProtocol: H2C_APP_PROTOCOL } : {});
  const [first, ...rest] = ports;
  const head: V1ServicePort = first
    ? {
        ...(first.name ? { name: first.name } : {}),
        port: SERVICE_PORT,
        targetPort: first.containerPort as unknown as V1ServicePort['targetPort'],
        protocol: first.protocol ?? 'TCP',
        ...appProtocol(first.name),
      }
    : // No container port: named after the component's Service, 80 → 8080.
      { name: serviceName, port: SERVICE_PORT, targetPort: HTTP_PORT as unknown as V1ServicePort['targetPort'], protocol: 'TCP' };
  const others = rest.map(
    (p): V1ServicePort => ({
      ...(p.name ? { name: p.name } : {}),
      port: p.containerPort,
      targetPort: p.containerPort as unknown as V1ServicePort['targetPort'],
      protocol: p.protocol ?? 'TCP',
      ...appProtocol(p.name),
    }),
  );
  return [viaAgent ? { ...head, targetPort: AGENT_PORT as unknown as V1ServicePort['targetPort'] } : head, ...others];
}

/**
 * Ports a Service cannot hold, which KServe would only learn from the API server's refusal:
 * with several ports each needs a name, distinct names, and no second port on 80 (the first
 * port's Service port) or twice on one number.
 */
export function servicePortProblems(spec: InferenceServiceSpec): SpecProblem[] {
  return (['predictor', 'transformer', 'explainer'] as ComponentName[]).flatMap((role) => {
    const comp = spec[role];
    if (!comp) return [];
    const model =
      role === 'predictor' ? modelOf(spec.predictor) : role === 'explainer' && spec.explainer?.art ? (spec.explainer.art as ContainerSpec) : undefined;
    const containers = comp.containers ?? [];
    const transformerAt = containers.findIndex((c) => c.name === 'transformer-container');
    const where: { path: string; container: ContainerSpec | undefined } =
      transformerAt >= 0
        ? { path: `spec.${role}.containers[${transformerAt}]`, container: containers[transformerAt] }
        : model
          ? { path: role === 'explainer' ? 'spec.explainer.art' : `spec.${role}.${modelKey(spec)}`, container: model }
          : { path: `spec.${role}.containers[0]`, container: containers[0] };
    return portProblems(where.container?.ports ?? [], where.path);
  });
}

const modelKey = (spec: InferenceServiceSpec): string => FRAMEWORK_KEYS.find((k) => spec.predictor[k] !== undefined) ?? 'model';

function portProblems(ports: NonNullable<ContainerSpec['ports']>, path: string): SpecProblem[] {
  if (ports.length < 2) return [];
  const problems: SpecProblem[] = [];
  const names = new Set<string>();
  const numbers = new Set<number>([SERVICE_PORT]);
  ports.forEach((p, i) => {
    if (!p.name)
      problems.push({
        path: `${path}.ports[${i}].name`,
        message: 'required: every container port becomes a Service port, and a Service with several ports needs a name for each',
      });
    else if (names.has(p.name)) problems.push({ path: `${path}.ports[${i}].name`, message: `${p.name} is used twice: Service port names must be unique` });
    else names.add(p.name);
    if (i > 0) {
      if (numbers.has(p.containerPort))
        problems.push({
          path: `${path}.ports[${i}].containerPort`,
          message: `${p.containerPort} is already a Service port (the first container port is exposed as 80, the others on their own numbers)`,
        });
      numbers.add(p.containerPort);
    }
  });
  return problems;
}
