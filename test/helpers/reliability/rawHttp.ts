import { connect, type Socket } from "node:net";

/**
 * A raw TCP client of the service on loopback, bound to `localAddress` (127.0.0.1 and 127.0.0.2 are two clients).
 * Rejects (and destroys the socket) if it is not connected within `timeoutMs`: a full listen backlog never hangs a test.
 */
export function openSocket(port: number, localAddress: string, timeoutMs = 5000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no connection from ${localAddress} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** What a raw socket received, and when it closed (ms since it was watched), if it did. */
export interface Received {
  text: () => string;
  /** Status line's code of the first answer, or null when none came. */
  status: () => number | null;
  closedAfterMs: () => number | null;
  closed: Promise<void>;
}

/** Collects what `socket` receives from now on; errors (a reset) count as a close. */
export function watch(socket: Socket): Received {
  const started = Date.now();
  let text = "";
  let closedAt: number | null = null;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (text += chunk));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => {
    if (socket.destroyed) {
      closedAt = Date.now();
      resolve();
      return;
    }
    socket.once("close", () => {
      closedAt = Date.now();
      resolve();
    });
  });
  return {
    text: () => text,
    status: () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      return match === null ? null : Number(match[1]);
    },
    closedAfterMs: () => (closedAt === null ? null : closedAt - started),
    closed,
  };
}

/** Resolves when `promise` does, or after `ms` with `false` (so that a test never waits forever). */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One complete HTTP/1.1 request on a fresh socket from `localAddress`; resolves with the status and the time taken. */
export async function request(
  port: number,
  localAddress: string,
  raw: string,
  timeoutMs = 5000,
): Promise<{ status: number | null; ms: number; text: string; closed: boolean }> {
  const started = Date.now();
  let socket: Socket;
  try {
    socket = await openSocket(port, localAddress, timeoutMs);
  } catch (error) {
    return { status: null, ms: Date.now() - started, text: String((error as Error).message), closed: true };
  }
  const received = watch(socket);
  socket.write(raw);
  await within(
    new Promise<void>((resolve) => {
      const check = () => (/\r\n\r\n/.test(received.text()) ? resolve() : undefined);
      socket.on("data", check);
      void received.closed.then(resolve);
    }),
    timeoutMs,
  );
  const ms = Date.now() - started;
  const closed = received.closedAfterMs() !== null;
  socket.destroy();
  return { status: received.status(), ms, text: received.text(), closed };
}

/** `GET path` with `Connection: close`. */
export function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
}

/** The headers of a `POST /api/v1/verify` announcing a `length`-byte JSON body (keep-alive). */
export function postHead(length: number, path = "/api/v1/verify"): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
}
