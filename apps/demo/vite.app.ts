import { fileURLToPath } from 'node:url';
import { defineConfig, type PluginOption, type UserConfig } from 'vite';

/**
 * The build of the React and the Vue demo app (`react/vite.config.ts`, `vue/vite.config.ts`): one
 * page shell for both, made here rather than kept as two index.html files, with the app's own
 * entry; built to dist/<app> and served by src/serve.ts on its own origin, which writes the Remit
 * server's address and the public key into the meta tags.
 */
export function demoApp(name: 'React' | 'Vue', entry: string, framework: PluginOption): UserConfig {
  const dir = name.toLowerCase();
  const root = fileURLToPath(new URL(`./${dir}`, import.meta.url));
  const page = `${root}/index.html`;
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="remit-url" content="{{REMIT_URL}}" />
    <meta name="remit-key" content="{{REMIT_KEY}}" />
    <title>Remit demo shop (${name})</title>
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="./${entry}"></script>
  </body>
</html>
`;
  return defineConfig({
    root,
    plugins: [
      framework,
      {
        name: 'remit-demo-page',
        resolveId: (id) => (id === page ? page : null),
        load: (id) => (id === page ? html : null),
      },
    ],
    build: {
      outDir: fileURLToPath(new URL(`./dist/${dir}`, import.meta.url)),
      emptyOutDir: true,
      rollupOptions: { input: page },
    },
  });
}
