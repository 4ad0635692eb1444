// A code snippet with an optional caption and a copy button above it (never covering the code).
import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";

export function CodeBlock({
  code,
  copyLabel,
  language,
  caption,
}: {
  code: string;
  copyLabel: string;
  language?: string;
  caption?: ReactNode;
}) {
  return (
    <div className="stack" style={{ gap: 6, minWidth: 0 }}>
      <div className="code-header">
        <span className="section-note">{caption}</span>
        <CopyButton text={code} label={copyLabel} />
      </div>
      <pre className="code" data-language={language} tabIndex={0} aria-label={copyLabel.replace(/^Copy /, "")}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
