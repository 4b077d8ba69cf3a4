import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { DownloadRequest } from "../../../adapters/downloads/artifact-download.ts";
import { createDownloadRoutes } from "../../../adapters/http/download-routes.ts";
import { createErrorHandler } from "../../../adapters/http/error-handler.ts";
import { DownloadLinkExpired, DownloadRevoked } from "../../../application/customers/errors.ts";
import { DownloadSourceBusy } from "../../../application/shared/errors.ts";
import { createLogger } from "../../../kit/logger.ts";

const ARCHIVE = "http://archives.internal/app/2.0.0";

/** The routes over a link whose state the test sets, recording what reached the archive's side. */
function setup(answer: (request: DownloadRequest) => Promise<Response>) {
  const state = { refusal: undefined as Error | undefined, asked: [] as DownloadRequest[] };
  const app = new Elysia().use(createErrorHandler({ logger: createLogger({ level: "silent" }) })).use(
    createDownloadRoutes({
      async resolveDownload(token) {
        if (token !== "good-token") throw new DownloadRevoked();
        if (state.refusal) throw state.refusal;
        return ARCHIVE;
      },
      async downloadArtifact(url, request) {
        expect(url).toBe(ARCHIVE);
        state.asked.push(request);
        return answer(request);
      },
    }),
  );
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  const call = (method: string, headers: Record<string, string> = {}, token = "good-token") =>
    fetch(`http://127.0.0.1:${server.port}/api/downloads/${token}`, { method, headers });
  return { state, call, stop: () => server.stop(true) };
}

const sized = () =>
  new Response(null, { status: 206, headers: { "content-length": "100", "content-range": "bytes 0-99/5000" } });

describe("GET and HEAD /api/downloads/{token}", () => {
  test("HEAD reaches the archive's side as a HEAD, and its Content-Length reaches the client", async () => {
    const { call, state, stop } = setup(async () => sized());
    try {
      const head = await call("HEAD", { range: "bytes=0-99", "if-range": '"v1"' });
      expect([head.status, head.headers.get("content-length"), head.headers.get("content-range")]).toEqual([
        206,
        "100",
        "bytes 0-99/5000",
      ]);
      expect(state.asked.map(({ method, range, ifRange }) => [method, range, ifRange])).toEqual([
        ["HEAD", "bytes=0-99", '"v1"'],
      ]);
    } finally {
      stop();
    }
  });

  test("a refused link is refused for HEAD as for GET, before the archive's side is asked", async () => {
    const { call, state, stop } = setup(async () => sized());
    try {
      for (const method of ["GET", "HEAD"]) {
        expect([method, (await call(method, {}, "other-token")).status]).toEqual([method, 410]);
      }
      expect(state.asked).toEqual([]);
    } finally {
      stop();
    }
  });

  test("a busy archive server is a 503 with its own Retry-After", async () => {
    const { call, stop } = setup(async () => {
      throw new DownloadSourceBusy(7);
    });
    try {
      const response = await call("GET");
      expect([response.status, response.headers.get("retry-after")]).toEqual([503, "7"]);
      expect(await response.json()).toMatchObject({ code: "DOWNLOAD_SOURCE_BUSY" });
    } finally {
      stop();
    }
  });

  test("a transfer under way stops on a revocation, not on the link's expiry", async () => {
    const { call, state, stop } = setup(async () => new Response("bytes"));
    try {
      await (await call("GET")).text();
      const [request] = state.asked;
      expect(await request?.stillAllowed()).toBe(true);
      state.refusal = new DownloadLinkExpired();
      expect(await request?.stillAllowed()).toBe(true);
      state.refusal = new DownloadRevoked();
      expect(await request?.stillAllowed()).toBe(false);
    } finally {
      stop();
    }
  });
});
