// A copy-to-clipboard button whose accessible name stays fixed (e.g. "Copy base URL"); "Copied" is announced politely.
import { Check, Copy } from "lucide-react";
import { useClipboard } from "../hooks/useClipboard";

export interface CopyButtonProps {
  text: string;
  /** Accessible name, e.g. "Copy key". */
  label: string;
  /** Show the word "Copy" beside the icon. */
  showText?: boolean;
  /** Visible text instead of "Copy" (then it is also the accessible name's start). */
  visibleText?: string;
  className?: string;
}

export function CopyButton({
  text,
  label,
  showText = true,
  visibleText = "Copy",
  className = "btn sm",
}: CopyButtonProps) {
  const { copy, copied, failed } = useClipboard();
  return (
    <>
      <button type="button" className={className} aria-label={label} title={label} onClick={() => void copy(text)}>
        {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
        {showText ? <span aria-hidden>{copied ? "Copied" : failed ? "Copy failed" : visibleText}</span> : null}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? "Copied to clipboard" : failed ? "Could not copy" : ""}
      </span>
    </>
  );
}
