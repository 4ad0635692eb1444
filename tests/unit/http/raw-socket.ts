// One raw HTTP/1.1 exchange over a socket to 127.0.0.1, for requests Node's client will not send (duplicate Host).
// Test-only; always bounded.
import net from "node:net";

/** Sends `request` (with `Connection: close` in it) and resolves with status, lower-cased headers and body. */
export function rawExchange(
  port: number,
  request: string,
  timeoutMs = 5000,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (c: Buffer) => (text += c.toString("utf8")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const c = line.indexOf(":");
        if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: text.slice(split + 4),
      });
    });
  });
}
