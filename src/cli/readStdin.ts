/** All of standard input as UTF-8 text (a hook's JSON payload); shared by the hook fast path and the `hook` command. */
export function readStdin(): Promise<string> {
  return new Promise((res, rej) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', rej);
  });
}
