/**
 * The MCP server's stdin, line-checked: the SDK's stdio transport drops a line that is not JSON
 * without answering, while JSON-RPC 2.0 says a parse error gets `{"id": null, "error": {"code":
 * -32700}}`. This stream answers such lines itself (on the protocol's stdout) and passes every
 * well-formed line through unchanged. A line longer than MAX_LINE_CHARS is answered the same way
 * without being held in memory whole.
 */
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

/** Longest JSON-RPC message accepted (oversized tool arguments are refused by the tools' schemas well below this). */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export function parseErrorLine(message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message } }) + '\n';
}

export function checkedStdin(reply: (line: string) => void): Transform {
  let pending = '';
  let overflow = false;
  const check = (line: string, push: (s: string) => void): void => {
    if (!line.trim()) return;
    try { JSON.parse(line); } catch { reply(parseErrorLine('Parse error: the line is not JSON.')); return; }
    push(line + '\n');
  };
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      pending += chunk.toString('utf8');
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (overflow) overflow = false; else check(line.replace(/\r$/, ''), (s) => this.push(s));
        nl = pending.indexOf('\n');
      }
      if (pending.length > MAX_LINE_CHARS) {
        pending = '';
        if (!overflow) reply(parseErrorLine(`Parse error: a message longer than ${MAX_LINE_CHARS} characters.`));
        overflow = true;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (pending && !overflow) check(pending, (s) => this.push(s));
      done();
    },
  });
}
