import { inject } from 'vitest';
import { Kube, type KubeInfo } from './kube.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kube: KubeInfo;
    binDir: string;
  }
}

/** The client for the API server that globalSetup started. */
export function kube(): Kube {
  return new Kube(inject('kube'));
}

export function binDir(): string {
  return inject('binDir');
}
