import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Sends a request exactly as given (path unnormalised, headers repeated when given as a list,
 * any body bytes), which fetch would refuse or tidy up.
 */
export function sendRaw(
  baseUrl: string,
  sent: { method: string; path: string; headers: Record<string, string | string[]>; body?: string | Buffer },
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | string[] | number> = { ...sent.headers };
  if (sent.body !== undefined) headers['content-length'] = Buffer.byteLength(sent.body);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: url.hostname, port: url.port, method: sent.method, path: sent.path, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
      },
    );
    // A server that answers before reading a refused body closes the socket under the writer.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(sent.body);
  });
}
