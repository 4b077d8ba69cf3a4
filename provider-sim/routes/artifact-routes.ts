import { Elysia } from "elysia";
import { HttpProblem } from "../../kit/problem.ts";

/** Product and version names: what a file name may safely carry. */
const NAME = /^[a-z0-9._-]{1,64}$/;

/**
 * `/artifacts/{product}/{version}`: the release archives a self-hosted product's download
 * entitlement points at (`artifact_source` + `/` + version). No auth, like a public mirror.
 */
export function createArtifactRoutes() {
  return new Elysia().get("/artifacts/:product/:version", ({ params }) => {
    const { product, version } = params;
    if (!NAME.test(product) || !NAME.test(version)) {
      throw new HttpProblem(404, "ARTIFACT_NOT_FOUND", "No release archive is known by this name.");
    }
    return new Response(`${product} ${version} release archive\n`, {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${product}-${version}.tar.gz"`,
      },
    });
  });
}
