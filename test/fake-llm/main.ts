// Runs the fake LLM by hand: `node --import tsx test/fake-llm/main.ts --port N --log FILE`.
// Prints the URL, then one line per request; ends on SIGINT/SIGTERM.
// It must never be used by tests: they call startFakeLlm() and own its lifetime.
import { startFakeLlm } from './server.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(arg('port') ?? 0);
const logFile = arg('log');
const fake = await startFakeLlm({ port, ...(logFile ? { logFile } : {}) });
console.log(`fake LLM listening on ${fake.url}${logFile ? `, logging to ${logFile}` : ''}`);

let shown = 0;
const timer = setInterval(() => {
  const all = fake.requests();
  for (; shown < all.length; shown++) {
    const r = all[shown]!;
    const reply = r.reply ? (r.reply.kind === 'tool' ? ` -> tool ${r.reply.name}` : ` -> ${r.reply.kind}`) : '';
    console.log(`#${r.seq} ${r.api} ${r.kind} ${r.method} ${r.path} ${r.model}${r.stream ? ' (stream)' : ''}${reply}`);
  }
}, 200);

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    clearInterval(timer);
    void fake.close().then(() => process.exit(0));
  });
}
