// The wire table: every API dialect Patchbay speaks, in the order the API app matches their routes. A new wire is
// one folder beside these (its routes, decoder, encoder and error envelope in a `wire.ts`) and one row here.
import type { WireTable } from "../http/wire";
import { anthropicMessagesWire } from "./anthropic-messages/wire";
import { toOpenAiErrorBody } from "./openai/error-envelope";
import { openAiModelsWire } from "./openai/wire";
import { openAiChatWire } from "./openai-chat/wire";
import { openAiResponsesWire } from "./openai-responses/wire";

/** Anthropic's /v1/models routes come before OpenAI's: they take only Anthropic's clients, the rest falls through.
 *  A request no route matches (an unknown path, /healthz) is answered in OpenAI's envelope, whose
 *  `{error:{message,code}}` any client can read. */
export const WIRES: WireTable = {
  wires: [anthropicMessagesWire, openAiModelsWire, openAiChatWire, openAiResponsesWire],
  unmatchedErrorBody: toOpenAiErrorBody,
};
