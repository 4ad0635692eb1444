// Warnings as values: short constructors for each kind, the one text of a warning, and the collector a layer uses so
// it names each thing once. Pure; no layer merges another layer's warnings here (the runner concatenates them once).
import type { PatchbayWarning, WarningKind } from "./contract";

/** The text of one warning, as `x-patchbay-warnings` and the request log show it. The only formatter: the header,
 *  count_tokens' header and the log all go through it. */
export function formatWarning(w: PatchbayWarning): string {
  return w.detail;
}

const make =
  (kind: WarningKind) =>
  (param: string, detail: string): PatchbayWarning => ({ kind, param, detail });

/** Constructors, one per kind (`warn.dropped("top_k", "top_k dropped: …")`); `ignored` defaults its text to
 *  "`param` ignored", the decoders' usual wording. */
export const warn = {
  ignored: (param: string, detail = `${param} ignored`): PatchbayWarning => ({ kind: "ignored", param, detail }),
  dropped: make("dropped"),
  approximated: make("approximated"),
  unsupported: make("unsupported"),
};

/**
 * One layer's warnings in the order found. A layer that meets the same thing in several places (media in two
 * assistant messages, images in three tool results) says it once: a warning whose text this layer already has is not
 * added again. This is the layer's own wording rule, not a merge: layers never pass each other's warnings on.
 */
export class WarningList {
  readonly list: PatchbayWarning[] = [];
  private readonly texts = new Set<string>();

  /** Adds `w` unless this layer already said the same text. */
  add(w: PatchbayWarning): void {
    const text = formatWarning(w);
    if (this.texts.has(text)) return;
    this.texts.add(text);
    this.list.push(w);
  }
}
