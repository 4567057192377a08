import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Tests only: the shell blocks of README.md and docs/*.md, and a bash that runs them as a reader pastes them. */
export const root = fileURLToPath(new URL('../../../../', import.meta.url));
const exec = promisify(execFile);

export interface ShellBlock {
  /** `docs/webhooks.md: SIGNING_SECRET=$(curl -s …` — the page and the block's first line: how the tests name it. */
  key: string;
  file: string;
  text: string;
}

/** Every fenced block a reader runs in a shell: ```sh, ```bash, ```shell, ```console, or any block with `curl`. */
export function shellBlocks(): ShellBlock[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs')).flatMap((n) => (n.endsWith('.md') ? [`docs/${n}`] : [])),
  ];
  return files.flatMap((file) =>
    // Indented blocks (a step of a numbered runbook) count too; their text is read without the indent.
    [...readFileSync(join(root, file), 'utf8').matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)]
      .map(([, indent, lang, body]) => ({ lang: lang!, text: body!.replace(new RegExp(`^${indent}`, 'gm'), '') }))
      .filter(({ lang, text }) => ['sh', 'bash', 'shell', 'console'].includes(lang) || /\bcurl\b/.test(text))
      .map(({ text }) => ({ key: `${file}: ${text.split('\n')[0]}`, file, text })),
  );
}

/** The ```sh blocks of the README section that starts with `## A five-minute walk`. */
export function walkBlocks(readme = readFileSync(join(root, 'README.md'), 'utf8')): string[] {
  const start = readme.indexOf('\n## A five-minute walk');
  if (start < 0) throw new Error('README has no "## A five-minute walk" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * A ~/.curlrc that makes every curl also write `HTTP <status> <method> <path>` on stderr: the
 * blocks run unchanged (their stdout is what the reader sees) and the test still sees each answer's status.
 */
const curlHome = mkdtempSync(join(tmpdir(), 'remit-curlrc-'));
writeFileSync(join(curlHome, '.curlrc'), 'write-out = "%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n"\n');

/** Runs `script` in one `bash -o pipefail` at the repository's root with `PORT`; with `statuses`, curl reports each answer's status on stderr. */
export async function bash(script: string, port: string, opts: { statuses?: boolean } = {}) {
  return await exec('bash', ['-o', 'pipefail', '-c', script], {
    cwd: root,
    env: { ...process.env, PORT: port, ...(opts.statuses ? { CURL_HOME: curlHome } : {}) },
    timeout: 60_000,
  });
}

/**
 * `blocks` pasted one after the other into one shell after `prelude`, each fenced by a marker line
 * on stdout and stderr: what each printed (trimmed), and the status of each API call it made; then
 * `after` (the variables a page sets), its output as `after`.
 */
export async function runBlocks(prelude: string, blocks: string[], port: string, after = '') {
  const mark = (m: string) => `printf '\\n@@${m}\\n'; printf '\\n@@${m}\\n' >&2`;
  const script = [prelude, ...blocks.flatMap((b, i) => [mark(`block ${i}`), b]), mark('end'), after].join('\n');
  const { stdout, stderr } = await bash(script, port, { statuses: true });
  const split = (out: string) => out.split(/\n@@(?:block \d+|end)\n/).slice(1);
  const outs = split(stdout);
  const errs = split(stderr);
  return {
    blocks: blocks.map((_, i) => ({
      stdout: outs[i]!.trim(),
      statuses: [...errs[i]!.matchAll(/^HTTP (\d{3}) (\S+) \S+?(\/api\/[^?\s]*)\S*$/gm)].map(
        (m) => `${m[1]} ${m[2]} ${m[3]}`,
      ),
      stderr: errs[i]!.replace(/^HTTP \d{3} .*\n?/gm, '').trim(),
    })),
    after: outs[blocks.length]!.trim(),
  };
}
