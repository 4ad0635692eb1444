// The compat case runner: binds a case (request + prose assertions) to its executable spec (the mock script its
// fixture lines describe, and assertions written from its `expect` lines), and runs it against a Patchbay fixture.
// Test-only. Specs live in *-specs.ts next to this file; every case id in the cases file must have one.
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import type { MockReply, MockResponder, RecordedRequest } from "../harness/mock-upstream";
import { caseRequest, patchbayCaseVars, type CaseRequest, type CaseVars, type CompatCase } from "./cases";
import { exchange, type Exchange } from "./exchange";

/** One run of a request: what the client got and what the mock upstream recorded. */
export interface CaseRun {
  res: Exchange;
  /** Chat requests the mock upstream received for this run. */
  upstream: RecordedRequest[];
}

/** Options of {@link CaseContext.send}. */
export interface SendOptions {
  /** Mock replies, consumed one per upstream call (empty: the mock's default text reply). */
  script?: MockReply[];
  /** Reply chosen per upstream call once `script` is used up (for replies that must not depend on call order). */
  responder?: MockResponder;
  /** Request to send instead of the case's own. */
  request?: CaseRequest;
  /** Mutates a deep copy of the request body (for variants). */
  body?: (body: Record<string, unknown>) => void;
  /** Replaces or removes (value null) request headers. */
  headers?: Record<string, string | null>;
  /** Waits this long after the response before reading the upstream record (to prove no retry came). */
  settleMs?: number;
}

/** What a spec gets. */
export interface CaseContext {
  fx: PatchbayFixture;
  key: string;
  vars: CaseVars;
  case: CompatCase;
  /** The case's request with placeholders substituted. */
  request: CaseRequest;
  /** Resets the mock, scripts it, sends the (possibly varied) request, returns the exchange and upstream record. */
  send(opts?: SendOptions): Promise<CaseRun>;
}

/** The executable form of one case. */
export interface CaseSpec {
  run(ctx: CaseContext): Promise<void>;
  /** When Patchbay answers with a documented, honest behaviour instead of the case's primary expectation, the
   *  line for the README's "Known gaps". */
  gap?: string;
}

/** Runs `c` with `spec` against `fx` using `key`. */
export async function runCompatCase(fx: PatchbayFixture, key: string, c: CompatCase, spec: CaseSpec): Promise<void> {
  const vars = patchbayCaseVars(key);
  const request = caseRequest(c, vars);
  const origin = fx.apiBase.replace(/\/v1$/, "");
  const ctx: CaseContext = {
    fx,
    key,
    vars,
    case: c,
    request,
    async send(opts = {}) {
      const base = opts.request ?? request;
      const body = base.body === null || base.body === undefined ? base.body : structuredClone(base.body);
      if (opts.body) {
        assert.ok(body && typeof body === "object", "a body variant needs a JSON object body");
        opts.body(body as Record<string, unknown>);
      }
      const headers: Record<string, string> = { ...base.headers };
      for (const [k, v] of Object.entries(opts.headers ?? {})) {
        for (const h of Object.keys(headers)) if (h.toLowerCase() === k.toLowerCase()) delete headers[h];
        if (v !== null) headers[k] = v;
      }
      fx.mock.reset();
      if (opts.script?.length) fx.mock.script(...opts.script);
      if (opts.responder) fx.mock.setResponder(opts.responder);
      const res = await exchange(origin, { method: base.method, path: base.path, headers, body });
      if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
      return { res, upstream: [...fx.mock.chatRequests()] };
    },
  };
  await spec.run(ctx);
}

/** Fails when a case id has no spec or a spec has no case (the cases file and the specs must stay in step). */
export function assertSpecsCoverCases(cases: readonly CompatCase[], specs: Readonly<Record<string, CaseSpec>>): void {
  const ids = cases.map((c) => c.id);
  const missing = ids.filter((id) => !(id in specs));
  const orphan = Object.keys(specs).filter((id) => !ids.includes(id));
  assert.deepEqual({ missing, orphan }, { missing: [], orphan: [] }, "every compat case needs exactly one spec");
}
