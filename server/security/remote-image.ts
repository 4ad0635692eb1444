// Fetches one remote image over http(s) with SSRF guards (DNS resolved once per hop, every address checked, connection
// pinned to the checked addresses) and returns it as a data: URL. Must not follow a hop it has not re-checked.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress, LookupOptions } from "node:dns";
import type { IncomingMessage } from "node:http";
import { PatchbayError } from "../core/errors";
import { isPublicAddress } from "./ip-policy";

/** A fetched image, ready to replace an http(s) URL in a media part. */
export interface RemoteImage {
  /** The response's `content-type` media type, lower-cased, without parameters (always `image/*`). */
  mediaType: string;
  /** `data:<mediaType>;base64,<body>`. */
  dataUrl: string;
  /** Body size in bytes (before base64). */
  bytes: number;
  /** The URL the body came from: the last hop after redirects. */
  finalUrl: string;
}

/** Limits and seams of {@link fetchRemoteImage}. */
export interface FetchRemoteImageOptions {
  /** Largest body accepted, bytes. Default 20 MiB. */
  maxBytes?: number;
  /** Cap on the whole fetch (all DNS look-ups, redirects and the body), ms. Default 10 000. */
  timeoutMs?: number;
  /** Redirects followed (each hop re-resolved and re-checked). Default 3; 0 refuses every redirect. */
  maxRedirects?: number;
  /** Resolves a host name to IP literals. Default: the OS resolver (`dns.lookup`, all addresses). Called once per hop. */
  resolve?: (host: string) => Promise<string[]>;
  /** Address policy. Default {@link isPublicAddress}; tests inject a narrower exception for 127.0.0.1. */
  allowAddress?: (ip: string) => boolean;
  /** The request field the URL came from, carried as `param` on every error (e.g. `messages[1].content[0]`). */
  param?: string | null;
  /** Aborts the fetch (client gone, a sibling fetch failed); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Which `content-type` media types are accepted (lower-case, no parameters). Default: `image/*`. Web fetch
   *  (server/server-tools/web-fetch.ts) reuses this guard for text pages. */
  acceptMediaType?: (mediaType: string) => boolean;
  /** Checks each redirect target before it is followed: a returned text refuses it (400 `invalid_request_error` with
   *  that message). Web fetch uses it for the client's allowed/blocked domains, which the first URL alone would not
   *  keep (a redirect from an allowed domain to another one). */
  allowRedirect?: (target: URL) => string | null;
}

export const REMOTE_IMAGE_DEFAULTS = Object.freeze({ maxBytes: 20 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 });

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const IMAGE_MEDIA_TYPE = /^image\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * Fetches `url` (http or https only) and returns it as a data: URL.
 *
 * Guards, in order, per hop: the URL must be http(s) without credentials; the host is resolved once (IP literals are
 * not resolved) and EVERY address must pass `allowAddress`, else the hop is refused; the connection then goes only to
 * those checked addresses (a pinned `lookup` on a fresh, non-pooled agent, so a second DNS answer can never be used;
 * TLS still verifies the certificate against the host name). Redirects (301/302/303/307/308) are followed manually,
 * as GET, up to `maxRedirects`, and each target goes through the same guards.
 *
 * Errors (PatchbayError, `param` = `opts.param`; messages name the URL's host, never its path, query or credentials):
 * - 400 `invalid_request_error`: not a valid URL, not http(s), credentials in the URL, host unresolvable, host
 *   resolves to a refused address, connection failed, non-2xx answer, bad or too many redirects, a compressed body.
 * - 415 `unsupported_media_type`: the answer's `content-type` is not `image/*`.
 * - 413 `payload_too_large`: `Content-Length` over `maxBytes`, or the streamed body passes it (the download is
 *   cut off as soon as it does).
 * - 504 `timeout`: the whole fetch took longer than `timeoutMs` (the remote server is the slow upstream here, hence
 *   a gateway timeout rather than a 400).
 * If `opts.signal` aborts, rejects with its reason.
 */
export async function fetchRemoteImage(url: string, opts: FetchRemoteImageOptions = {}): Promise<RemoteImage> {
  const maxBytes = opts.maxBytes ?? REMOTE_IMAGE_DEFAULTS.maxBytes;
  const timeoutMs = opts.timeoutMs ?? REMOTE_IMAGE_DEFAULTS.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? REMOTE_IMAGE_DEFAULTS.maxRedirects;
  const resolve = opts.resolve ?? resolveWithOs;
  const allowAddress = opts.allowAddress ?? isPublicAddress;
  const param = opts.param ?? null;
  const bad = (message: string): PatchbayError => new PatchbayError("invalid_request_error", message, { param });

  let current = parseImageUrl(url, bad, null);
  const firstHost = current.host;
  const where = (): string =>
    current.host === firstHost ? `'${current.host}'` : `'${current.host}' (redirected from '${firstHost}')`;

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
  const failure = (err: unknown): unknown => {
    if (opts.signal?.aborted) return opts.signal.reason;
    if (deadline.signal.aborted) {
      return new PatchbayError("timeout", `Fetching the image from host ${where()} took longer than ${timeoutMs} ms.`, {
        param,
      });
    }
    if (err instanceof PatchbayError) return err;
    return bad(`Could not fetch the image from host ${where()}: ${describeNetworkError(err)}.`);
  };

  try {
    for (let hop = 0; ; hop++) {
      const addresses = await abortable(resolveChecked(current, resolve, allowAddress, bad, where), signal);
      const res = await get(current, addresses, signal);
      try {
        if (REDIRECT_STATUSES.has(res.statusCode ?? 0)) {
          if (hop >= maxRedirects) {
            throw bad(`The image URL at host ${where()} redirected more than ${maxRedirects} times.`);
          }
          const location = res.headers.location;
          if (!location) throw bad(`The image server at host ${where()} answered a redirect without a Location.`);
          current = parseImageUrl(location, bad, current);
          const refused = opts.allowRedirect?.(current);
          if (refused) throw bad(refused);
          continue;
        }
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) throw bad(`The image server at host ${where()} answered HTTP ${status}.`);
        const mediaType = parseMediaType(res.headers["content-type"]);
        const accepted = opts.acceptMediaType ?? ((t: string) => IMAGE_MEDIA_TYPE.test(t));
        if (!mediaType || !accepted(mediaType)) {
          throw new PatchbayError(
            "unsupported_media_type",
            `The URL at host ${where()} is not an image: content-type '${printable(mediaType ?? "(none)")}' (only image/* is accepted).`,
            { param },
          );
        }
        const encoding = res.headers["content-encoding"]?.trim().toLowerCase();
        if (encoding && encoding !== "identity") {
          // We asked for identity; a compressed body would be inlined as a corrupt image.
          throw bad(
            `The image server at host ${where()} sent a compressed body ('${printable(encoding)}') although none was accepted.`,
          );
        }
        const declared = Number(res.headers["content-length"]);
        if (res.headers["content-length"] !== undefined && Number.isFinite(declared) && declared > maxBytes) {
          throw tooLarge(where(), `Content-Length: ${declared} bytes`, maxBytes, param);
        }
        const body = await readCapped(res, maxBytes, () =>
          tooLarge(where(), "download stopped at the limit", maxBytes, param),
        );
        return {
          mediaType,
          dataUrl: `data:${mediaType};base64,${body.toString("base64")}`,
          bytes: body.length,
          finalUrl: current.href,
        };
      } finally {
        // Never leave a half-read response (redirect body, refused type, oversize) holding its socket.
        res.destroy();
      }
    }
  } catch (err) {
    throw failure(err);
  } finally {
    clearTimeout(timer);
  }
}

/** Parses and vets a (possibly relative, for redirects) image URL. */
function parseImageUrl(raw: string, bad: (m: string) => PatchbayError, base: URL | null): URL {
  let parsed: URL;
  try {
    parsed = base ? new URL(raw, base) : new URL(raw);
  } catch {
    throw base
      ? bad(`The image server at host '${base.host}' redirected to an invalid URL.`)
      : bad("The image URL is not a valid URL.");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    const scheme = printable(parsed.protocol.slice(0, 20));
    throw base
      ? bad(
          `The image server at host '${base.host}' redirected to a '${scheme}' URL; only http and https are followed.`,
        )
      : bad(`Image URLs must use http or https (got '${scheme}'). Send other images inline as a data: URL.`);
  }
  if (parsed.username || parsed.password) {
    throw bad(
      `The image URL for host '${parsed.host}' contains credentials; Patchbay does not send them. Remove them from the URL.`,
    );
  }
  return parsed;
}

/** Resolves the hop's host once and checks every address; returns the checked list the connection is pinned to. */
async function resolveChecked(
  url: URL,
  resolve: (host: string) => Promise<string[]>,
  allowAddress: (ip: string) => boolean,
  bad: (m: string) => PatchbayError,
  where: () => string,
): Promise<string[]> {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (net.isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw bad(`Could not resolve the image URL's host ${where()}.`);
    }
    if (addresses.length === 0) throw bad(`Could not resolve the image URL's host ${where()}.`);
  }
  for (const address of addresses) {
    if (net.isIP(address) === 0 || !allowAddress(address)) {
      throw bad(
        `The image URL's host ${where()} resolves to a private, loopback, link-local or reserved address; ` +
          "Patchbay only fetches remote images from public addresses.",
      );
    }
  }
  return addresses;
}

async function resolveWithOs(host: string): Promise<string[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/** One GET, connected only to `addresses` (the pinned, already-checked set). Resolves with the response head. */
function get(url: URL, addresses: string[], signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = client.request(url, {
      method: "GET",
      // A fresh agent per request: no pooled socket from an earlier resolution can be reused.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
      headers: { accept: "image/*", "accept-encoding": "identity", "user-agent": "Patchbay (remote image fetch)" },
    });
    req.once("response", resolve);
    // `on`, not `once`: a late second error (after the response, on destroy) must never go unhandled.
    req.on("error", reject);
    req.end();
  });
}

/** A `net` lookup that answers only from the pre-checked addresses, never from DNS. Handles `all: true`
 *  (Node's happy-eyeballs family selection asks for every address) and a requested family. */
function pinnedLookup(addresses: string[]) {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: net.isIP(address) }));
  return (
    _hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const family =
      options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const usable = family === 0 ? entries : entries.filter((e) => e.family === family);
    const first = usable[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error("no checked address of the requested family");
      err.code = "ENOTFOUND";
      callback(err, "", 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** Reads the body, failing with `tooLarge()` as soon as it passes `maxBytes`. */
async function readCapped(res: IncomingMessage, maxBytes: number, tooLarge: () => PatchbayError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  if (!res.complete) throw new Error("the connection closed before the image was complete");
  return Buffer.concat(chunks, total);
}

function tooLarge(where: string, size: string, maxBytes: number, param: string | null): PatchbayError {
  return new PatchbayError(
    "payload_too_large",
    `The image at host ${where} is larger than the limit of ${maxBytes} bytes (${size}).`,
    { param },
  );
}

/** `image/PNG; charset=x` → `image/png`; undefined when absent. */
function parseMediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(";")[0]?.trim().toLowerCase();
}

/** Races `promise` with `signal` (DNS look-ups cannot be cancelled, but we must not wait for them past the deadline). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** A short, secret-free reason for a socket-level failure (codes only; Node's messages can include addresses). */
function describeNetworkError(err: unknown): string {
  const code = typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : "";
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ENOTFOUND":
      return "no usable address";
    case "":
      return "the connection failed";
    default:
      return code.startsWith("ERR_TLS") || code.includes("CERT")
        ? `TLS error (${printable(code)})`
        : `network error (${printable(code)})`;
  }
}

/** Keeps server-controlled text in messages short and printable. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 100);
}
