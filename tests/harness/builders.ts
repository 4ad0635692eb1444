// Builders of test data shared by every tier (one home, so two tests never disagree about a default entry).
import type { RequestLogEntry } from "../../shared/log-entry";
import type { AppNamed, LogOwner } from "../../shared/log-filter";
import type { ModelInfo } from "../../server/core/contract";

let nextLogEntryId = 0;

/** The id {@link logEntry} gives app `name` unless told another (`app-<name>`), and that app as the request log's
 *  lookups see it (created at 0, before every entry). */
export function testAppOwner(name: string, createdAt = 0): LogOwner {
  return { id: `app-${name}`, name, createdAt };
}

/** A lookup of apps that finds every name (see {@link testAppOwner}). */
export const everyTestApp: AppNamed = (name) => testAppOwner(name);

/** A complete, valid request-log entry (a 200 chat completion of app `demo`, model `mock/gpt`) with a fresh id,
 *  plus `over`; `appId` follows `app` ({@link testAppOwner}) unless given. */
export function logEntry(over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  nextLogEntryId++;
  const app = over.app === undefined ? "demo" : over.app;
  return {
    id: `req-${nextLogEntryId}`,
    time: 1_700_000_000_000,
    app,
    appId: app === null ? null : testAppOwner(app).id,
    keyPrefix: "AbCdEfGhIjKl",
    method: "POST",
    endpoint: "/v1/chat/completions",
    modelAsked: "mock/gpt",
    modelResolved: "mock/gpt",
    stream: false,
    status: 200,
    errorCode: null,
    errorMessage: null,
    ttftMs: 12,
    totalMs: 40,
    usage: { inputTokens: 5, outputTokens: 7, cachedTokens: 0, reasoningTokens: 0 },
    sessionId: "ses_1",
    warnings: [],
    ...over,
  };
}

/** A connected model as the backend lists it: `mock/mock-model` on the OpenAI-compatible package, with tools and
 *  attachments, plus `over` (`id` follows `providerID`/`modelID` unless given). */
export function modelInfo(over: Partial<ModelInfo> = {}): ModelInfo {
  const providerID = over.providerID ?? "mock";
  const modelID = over.modelID ?? "mock-model";
  return {
    id: `${providerID}/${modelID}`,
    providerID,
    modelID,
    name: modelID,
    providerName: providerID,
    variants: [],
    capabilities: { toolCall: true, attachment: true, reasoning: false, temperature: true },
    limit: { context: 128_000, output: 16_000 },
    npm: "@ai-sdk/openai-compatible",
    created: 0,
    ...over,
  };
}
