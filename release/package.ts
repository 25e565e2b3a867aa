// The release's packages made in Node, for when no helm binary is at hand: a chart package is a
// gzipped tar of the chart directory under its name (what `helm package` writes, without a
// provenance file), which `helm install <file>.tgz` and `helm show chart` read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One ustar header block: name, mode, sizes in octal, and the checksum of the block. */
function header(name: string, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: longer than a tar header's 100 bytes`);
  const block = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number) => block.write(text.slice(0, length), offset, length, 'utf8');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(mtime, 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

/** A .tar.gz of `dir`'s files under `prefix/` (sorted, one fixed time: the same input makes the same bytes). */
export function tarGz(dir: string, prefix: string, mtime = 0): Buffer {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((rel) => statSync(path.join(dir, rel)).isFile()).sort();
  const parts: Buffer[] = [];
  for (const rel of files) {
    const content = readFileSync(path.join(dir, rel));
    parts.push(header(`${prefix}/${rel.split(path.sep).join('/')}`, content.length, mtime), content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
