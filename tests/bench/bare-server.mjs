// The bench's bare HTTP server, in a process of its own as the API is: it reads one answer (headers
// and the bytes the API sent, as JSON on stdin), serves it from memory to every request, and prints
// "listening PORT" once it accepts connections. It stops when its stdin closes.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  const end = input.indexOf('\n');
  if (end < 0 || server.listening) return;
  const { headers, body } = JSON.parse(input.slice(0, end));
  const bytes = Buffer.from(body, 'base64');
  server.on('request', (_req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
const server = createServer();
