// Copy to clipboard with a short "copied" state. Uses the async Clipboard API (loopback pages are a secure context),
// falling back to a hidden textarea where it is unavailable.
import { useCallback, useEffect, useRef, useState } from "react";

async function writeText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Fall through (e.g. the document lost focus).
    }
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand("copy");
  ta.remove();
  if (!ok) throw new Error("Copy failed");
}

/** `copy(text)` and whether the last copy happened within `resetMs`. */
export function useClipboard(resetMs = 1_800): {
  copy: (text: string) => Promise<void>;
  copied: boolean;
  failed: boolean;
} {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string) => {
      window.clearTimeout(timer.current);
      try {
        await writeText(text);
        setCopied(true);
        setFailed(false);
      } catch {
        setFailed(true);
        setCopied(false);
      }
      timer.current = window.setTimeout(() => {
        setCopied(false);
        setFailed(false);
      }, resetMs);
    },
    [resetMs],
  );
  return { copy, copied, failed };
}
