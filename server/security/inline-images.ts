// Replaces http(s) media URLs in a neutral request by data: URLs (when the app allows remote images), so backends only
// ever see data: URLs. Owns the allow/refuse decision and fetch fan-out; the fetching itself is remote-image.ts.
import type { ContentPart, NeutralMessage, NeutralRequest } from "../core/contract";
import { PatchbayError } from "../core/errors";
import { fetchRemoteImage, type FetchRemoteImageOptions, type RemoteImage } from "./remote-image";

/** Fetches one image; rejects with a PatchbayError naming `param`. */
export type RemoteImageFetcher = (url: string, opts: { param: string; signal: AbortSignal }) => Promise<RemoteImage>;

/** Options of {@link inlineRemoteImages}. */
export interface InlineRemoteImagesOptions {
  /** The app's `remoteImages` limit (shared/apps.ts AppLimits). */
  allowed: boolean;
  /** Default: {@link fetchRemoteImage} with `fetchOptions`. */
  fetcher?: RemoteImageFetcher;
  /** Limits for the default fetcher (max bytes, time cap, redirects). Ignored when `fetcher` is given. */
  fetchOptions?: Omit<FetchRemoteImageOptions, "param" | "signal">;
  /** Fetches in flight at once. Default 4. */
  concurrency?: number;
  /** Cap on the sum of fetched image bytes per request. Default 50 MiB (OpenAI's documented per-request image
   *  payload limit), so many 20 MiB images cannot exhaust memory. Over it: 413 `payload_too_large`. */
  maxTotalBytes?: number;
  /** Aborts pending fetches (client disconnect, request deadline). */
  signal?: AbortSignal;
}

export const INLINE_IMAGES_DEFAULTS = Object.freeze({ concurrency: 4, maxTotalBytes: 50 * 1024 * 1024 });

interface Job {
  url: string;
  param: string;
  result?: RemoteImage;
}

/**
 * Walks the media parts of user and assistant messages: `data:` URLs pass untouched; http(s) URLs are refused with
 * 400 `invalid_request_error` when `allowed` is false, else fetched (at most `concurrency` at once, each distinct URL
 * once) and replaced by a data: URL with the fetched media type. Any other scheme is a 400 either way.
 *
 * `param` on errors is where the client put the part (the media part's `param`, set by the wire decoders); parts
 * built without one fall back to their neutral position, `messages[i].content[j]`.
 *
 * Returns `request` itself when it has no remote URL, else a copy (the input is never mutated). The first failed
 * fetch aborts the others and its error is thrown (see fetchRemoteImage for codes); over `maxTotalBytes` → 413.
 */
export async function inlineRemoteImages(
  request: NeutralRequest,
  opts: InlineRemoteImagesOptions,
): Promise<NeutralRequest> {
  const jobs = new Map<string, Job>();

  request.messages.forEach((message, i) => {
    if (message.role === "tool") return;
    message.content.forEach((part, j) => {
      if (part.type !== "media" || isDataUrl(part.url)) return;
      const param = part.param ?? `messages[${i}].content[${j}]`;
      if (!isHttpUrl(part.url)) {
        throw new PatchbayError("invalid_request_error", "Media URLs must be data: URLs or http(s) URLs.", { param });
      }
      if (!opts.allowed) {
        throw new PatchbayError(
          "invalid_request_error",
          "Remote image URLs are turned off for this app. Send the image inline as a data URL " +
            '(data:image/png;base64,...), or enable "Remote images" for this app in the Patchbay dashboard.',
          { param },
        );
      }
      if (!jobs.has(part.url)) jobs.set(part.url, { url: part.url, param });
    });
  });
  if (jobs.size === 0) return request;

  const fetcher: RemoteImageFetcher =
    opts.fetcher ?? ((url, o) => fetchRemoteImage(url, { ...opts.fetchOptions, param: o.param, signal: o.signal }));
  await runAll([...jobs.values()], fetcher, opts);

  const inline = (part: ContentPart): ContentPart => {
    if (part.type !== "media") return part;
    const image = jobs.get(part.url)?.result;
    return image ? { ...part, mediaType: image.mediaType, url: image.dataUrl } : part;
  };
  const messages = request.messages.map((m): NeutralMessage =>
    m.role === "tool" ? m : { ...m, content: m.content.map(inline) },
  );
  return { ...request, messages };
}

/** Runs the jobs with bounded concurrency; stops everything at the first failure and throws it. */
async function runAll(jobs: Job[], fetcher: RemoteImageFetcher, opts: InlineRemoteImagesOptions): Promise<void> {
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? INLINE_IMAGES_DEFAULTS.concurrency));
  const maxTotalBytes = opts.maxTotalBytes ?? INLINE_IMAGES_DEFAULTS.maxTotalBytes;
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([stop.signal, opts.signal]) : stop.signal;
  let next = 0;
  let total = 0;
  let firstError: { err: unknown } | undefined;

  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      const job = jobs[next++];
      if (!job) return;
      try {
        job.result = await fetcher(job.url, { param: job.param, signal });
        total += job.result.bytes;
        if (total > maxTotalBytes) {
          throw new PatchbayError(
            "payload_too_large",
            `The remote images of this request add up to more than ${maxTotalBytes} bytes.`,
            { param: job.param },
          );
        }
      } catch (err) {
        firstError ??= { err };
        stop.abort();
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  if (firstError) throw firstError.err;
  if (opts.signal?.aborted) throw opts.signal.reason;
}

function isDataUrl(url: string): boolean {
  return /^data:/i.test(url);
}

function isHttpUrl(url: string): boolean {
  return /^https?:/i.test(url);
}
