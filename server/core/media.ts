// Decodes image and file references from either wire format into neutral media parts, with 400s naming the field.
// Must not fetch anything: http(s) image URLs stay URLs here (the request service inlines them when the app allows).
import { quoteClientText } from "./client-text";
import type { ContentPart } from "./contract";
import { invalidRequest } from "./errors";

const DATA_URL = /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+*-]+)((?:;[^;,]*)*?);base64,/i;
const BASE64_BODY = /^[A-Za-z0-9+/_-]+={0,2}$/;

const IMAGE_TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

const FILE_TYPES_BY_EXTENSION: Record<string, string> = {
  ...IMAGE_TYPES_BY_EXTENSION,
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
};

function extensionOf(name: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(name);
  return match?.[1]?.toLowerCase() ?? "";
}

/** The media type registered for `name`'s extension; own keys only (an extension such as `.constructor` is unknown). */
function typeByExtension(table: Record<string, string>, name: string): string | undefined {
  const ext = extensionOf(name);
  return Object.hasOwn(table, ext) ? table[ext] : undefined;
}

/** A parsed base64 data URL: `data:<mediaType>[;params];base64,<payload>`. */
export interface DataUrl {
  mediaType: string;
  payload: string;
  /** The URL in canonical form: lower-case scheme, media type and `;base64`, no whitespace in the payload
   *  (RFC 2397 and URL schemes are case-insensitive; backends expect `data:image/png;base64,`). */
  url: string;
}

/** True when `payload` (base64 or base64url, padding optional) has a length base64 can have: groups of 4, where
 *  a last group of 1 character is impossible and padding only completes the last group. */
export function isBase64Length(payload: string): boolean {
  const body = payload.replace(/=+$/, "");
  const padding = payload.length - body.length;
  if (body.length % 4 === 1) return false;
  return padding === 0 || (body.length + padding) % 4 === 0;
}

/** Parses a base64 data URL; null when `url` is not one (percent-encoded data URLs are not accepted), or when its
 *  payload is not base64 (bad characters, or a length base64 cannot have, e.g. a truncated payload). */
export function parseDataUrl(url: string): DataUrl | null {
  const match = DATA_URL.exec(url);
  if (!match?.[1]) return null;
  const payload = url.slice(match[0].length).replace(/\s+/g, "");
  if (!BASE64_BODY.test(payload) || !isBase64Length(payload)) return null;
  const mediaType = match[1].toLowerCase();
  return { mediaType, payload, url: `data:${mediaType}${match[2] ?? ""};base64,${payload}` };
}

/** An image part from an image URL: a base64 `data:image/...` URL, or an http(s) URL whose media type is guessed
 *  from its extension (`image/*` when unknown) until the request service fetches it.
 *  @throws PatchbayError 400 with `param` when the URL is neither. */
export function decodeImageUrl(url: string, param: string): ContentPart {
  if (/^data:/i.test(url)) {
    const data = parseDataUrl(url);
    if (!data || !data.mediaType.startsWith("image/")) {
      throw invalidRequest(
        `Invalid image in '${param}': expected a base64 image data URL such as 'data:image/png;base64,iVBOR...'` +
          `${DATA_URL.test(url) ? " (the base64 data after the comma is not valid base64: bad characters or a truncated length)" : ""}.`,
        param,
      );
    }
    return { type: "media", mediaType: data.mediaType, url: data.url, param };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest(`Invalid image URL in '${param}': expected an http(s) URL or a base64 image data URL.`, param);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw invalidRequest(
      `Invalid image URL in '${param}': only http(s) URLs and base64 data URLs are accepted, not ${quoteClientText(parsed.protocol)}.`,
      param,
    );
  }
  const mediaType = typeByExtension(IMAGE_TYPES_BY_EXTENSION, parsed.pathname) ?? "image/*";
  return { type: "media", mediaType, url, param };
}

/** A file part from inline file data: a base64 data URL, or bare base64 whose media type is guessed from `filename`
 *  (`application/octet-stream` when unknown). @throws PatchbayError 400 with `param` when it is neither. */
export function decodeFileData(fileData: string, filename: string | undefined, param: string): ContentPart {
  const named = filename === undefined || filename === "" ? {} : { filename };
  if (/^data:/i.test(fileData)) {
    const data = parseDataUrl(fileData);
    if (!data) {
      throw invalidRequest(
        `Invalid file data in '${param}': expected a base64 data URL such as 'data:application/pdf;base64,JVBER...'` +
          `${DATA_URL.test(fileData) ? " (the base64 data after the comma is not valid base64: bad characters or a truncated length)" : ""}.`,
        param,
      );
    }
    return { type: "media", mediaType: data.mediaType, url: data.url, ...named, param };
  }
  const payload = fileData.replace(/\s+/g, "");
  if (!BASE64_BODY.test(payload) || !isBase64Length(payload)) {
    throw invalidRequest(`Invalid file data in '${param}': expected base64 data or a base64 data URL.`, param);
  }
  const mediaType = typeByExtension(FILE_TYPES_BY_EXTENSION, filename ?? "") ?? "application/octet-stream";
  return { type: "media", mediaType, url: `data:${mediaType};base64,${payload}`, ...named, param };
}
