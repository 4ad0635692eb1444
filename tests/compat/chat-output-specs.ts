// Specs of the non-stream-shape CC-* compat cases about what a completion carries besides text: structured output,
// images, n and logprobs. Mock scripts from the fixture lines and the `expect` lines as assertions.
import assert from "node:assert/strict";
import type { CaseSpec } from "./runner";
import { red16Base64 } from "./cases";
import { expectEnvelope, expectStatus, upstreamBody } from "./expect";

import { messagesOf, type Completion } from "./chat-specs";

type Json = Record<string, unknown>;

/** Specs by case id. */
export const chatOutputSpecs: Record<string, CaseSpec> = {
  "CC-JSON-SCHEMA-NO-FENCES": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({ script: [{ text: '{"name":"Alice","age":30}' }] });
      expectStatus(res, 200);
      const c = res.json<Completion>().choices[0]!;
      const content = String(c.message.content);
      assert.ok(!content.includes("```"));
      const parsed = JSON.parse(content) as Json;
      assert.deepEqual(Object.keys(parsed).sort(), ["age", "name"]);
      assert.equal(typeof parsed.name, "string");
      assert.ok(Number.isInteger(parsed.age));
      assert.equal(c.finish_reason, "stop");
      assert.deepEqual(
        upstreamBody(upstream).response_format,
        (ctx.request.body as Json).response_format,
        "response_format passed through exactly",
      );
    },
  },

  "CC-JSON-SCHEMA-STRICT-UNSUPPORTED-UPSTREAM": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({ script: [{ text: '{"city":"Lyon","country":"France"}' }] });
      expectStatus(res, 200);
      const parsed = JSON.parse(String(res.json<Completion>().choices[0]!.message.content)) as Json;
      assert.equal(typeof parsed.city, "string");
      assert.equal(typeof parsed.country, "string");
      upstreamBody(upstream);
    },
  },

  "CC-JSON-OBJECT-MODE": {
    gap: "CC-JSON-OBJECT-MODE: Patchbay does not check that a message mentions 'json' for json_object; the upstream decides.",
    async run(ctx) {
      const { res, upstream } = await ctx.send({ script: [{ text: '{"colours":["red","green","blue"]}' }] });
      expectStatus(res, 200);
      const content = String(res.json<Completion>().choices[0]!.message.content);
      assert.ok(!content.includes("```"));
      const parsed = JSON.parse(content) as Json;
      assert.ok(Array.isArray(parsed.colours));
      assert.deepEqual(upstreamBody(upstream).response_format, { type: "json_object" });
      const noJsonWord = await ctx.send({
        script: [{ text: '{"colours":["teal"]}' }],
        body: (b) => void (b.messages = [{ role: "user", content: "List one colour under key 'colours'." }]),
      });
      expectStatus(noJsonWord.res, 200);
      JSON.parse(String(noJsonWord.res.json<Completion>().choices[0]!.message.content));
    },
  },

  "CC-IMAGE-DATA-URL-AND-HTTP-URL": {
    gap:
      "CC-IMAGE-DATA-URL-AND-HTTP-URL: http(s) image URLs are refused with 400 (param names the image_url field) unless the app turns on " +
      '"Remote images"; then Patchbay fetches (SSRF-guarded) and inlines them. Data URLs always work; `detail` is dropped.',
    async run(ctx) {
      // Remote images are off by default: the honest answer is a 400 naming the part, and nothing reaches the upstream.
      const { res, upstream } = await ctx.send({ script: [{ text: "Red" }] });
      const e = expectEnvelope(res, 400, { param: "messages[0].content[2].image_url.url" });
      assert.match(e.message, /Remote image/i);
      assert.equal(upstream.length, 0);

      const red = red16Base64();
      const dataOnly = (url: string, detail?: string) => (b: Json) => {
        const content = (messagesOf(b)[0]!.content as Json[]).slice(0, 2);
        content[1] = { type: "image_url", image_url: { url, ...(detail ? { detail } : {}) } };
        messagesOf(b)[0]!.content = content;
      };
      const png = await ctx.send({ script: [{ text: "Red" }], body: dataOnly(`data:image/png;base64,${red}`, "low") });
      expectStatus(png.res, 200);
      assert.match(String(png.res.json<Completion>().choices[0]!.message.content).toLowerCase(), /red/);
      const sent = messagesOf(upstreamBody(png.upstream))[0]!.content as Json[];
      assert.deepEqual(
        sent[1],
        { type: "image_url", image_url: { url: `data:image/png;base64,${red}` } },
        "byte-identical data URL, detail dropped",
      );
      for (const mime of ["image/webp", "image/jpeg"]) {
        const v = await ctx.send({ body: dataOnly(`data:${mime};base64,${red}`) });
        expectStatus(v.res, 200);
        assert.equal(
          ((messagesOf(upstreamBody(v.upstream))[0]!.content as Json[])[1]!.image_url as Json).url,
          `data:${mime};base64,${red}`,
        );
      }
      for (const detail of ["high", "low", "auto", undefined]) {
        const v = await ctx.send({ body: dataOnly(`data:image/png;base64,${red}`, detail) });
        expectStatus(v.res, 200);
      }
    },
  },

  "CC-N-MULTIPLE-CHOICES": {
    gap: "CC-N-MULTIPLE-CHOICES: n > 1 is refused with 400 (param n); send n requests instead.",
    async run(ctx) {
      const { res, upstream } = await ctx.send();
      expectEnvelope(res, 400, { param: "n" });
      assert.equal(upstream.length, 0);
      const streamed = await ctx.send({ body: (b) => void (b.stream = true) });
      expectEnvelope(streamed.res, 400, { param: "n" });
      const one = await ctx.send({ body: (b) => void (b.n = 1) });
      expectStatus(one.res, 200);
      assert.equal(one.res.json<Completion>().choices.length, 1);
    },
  },

  "CC-LOGPROBS-SHAPE": {
    gap: "CC-LOGPROBS-SHAPE: logprobs / top_logprobs are refused with 400 (param logprobs / top_logprobs): OpenCode does not relay token log probabilities.",
    async run(ctx) {
      const { res, upstream } = await ctx.send();
      const e = expectEnvelope(res, 400);
      assert.ok(["logprobs", "top_logprobs"].includes(String(e.param)), `param ${e.param}`);
      assert.equal(upstream.length, 0);
      const streamed = await ctx.send({ body: (b) => void (b.stream = true) });
      const se = expectEnvelope(streamed.res, 400);
      assert.ok(["logprobs", "top_logprobs"].includes(String(se.param)));
      const only = await ctx.send({ body: (b) => void delete b.logprobs });
      expectEnvelope(only.res, 400, { param: "top_logprobs" });
      const control = await ctx.send({
        body: (b) => {
          delete b.logprobs;
          delete b.top_logprobs;
        },
      });
      expectStatus(control.res, 200);
      const lp = control.res.json<Completion>().choices[0]!.logprobs;
      assert.ok(lp === null || lp === undefined, "control: logprobs null or absent");
    },
  },
};
