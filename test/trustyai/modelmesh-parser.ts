import { parse } from 'yaml';

/**
 * ModelMesh's reading of `payloadProcessors` in model-serving-config's config.yaml, re-derived
 * from modelmesh-serving pkg/config/config.go@v0.12.0: viper reads the YAML and unmarshals it
 * into `PayloadProcessors []string` (mapstructure with viper's default hooks, whose
 * StringToSliceHookFunc splits a string on ","), then every entry that contains a space is
 * rejected ("endpoint must not contain spaces"). The controller joins the list with " " into
 * MM_PAYLOAD_PROCESSORS (controllers/servingruntime_controller.go@v0.12.0).
 */
export function modelMeshPayloadProcessors(configYaml: string): string[] {
  const config = parse(configYaml) as Record<string, unknown> | null;
  const value = config?.payloadProcessors;
  let list: string[];
  if (value === undefined || value === null) list = [];
  else if (Array.isArray(value)) list = value.map((v) => String(v));
  else if (typeof value === 'string') list = value === '' ? [] : value.split(',');
  else throw new Error(`'payloadProcessors' expected a list of strings, got ${typeof value}`);
  for (const processor of list) {
    if (processor.includes(' ')) throw new Error(`Error parsing payload processor '${processor}': endpoint must not contain spaces.`);
  }
  return list;
}
