import { join } from "node:path";

/**
 * The repository's root, where the files the server reads at run time live (migrations, email
 * templates, pages, the console's sources). Found from this module's folder, which is one level
 * below the root; so is `dist/`, where `npm run build` writes the bundled server, and in the
 * bundle our modules see the bundle's own folder as `import.meta.dir`. Both ways, the parent is the
 * root. (The bundler writes the build machine's paths into bundled CommonJS code instead, so a
 * bundle runs where it was built: `npm start` and the bench build before they run it.)
 */
const ROOT = join(import.meta.dir, "..");

/** A path inside the repository, from its root: `projectPath("web")`, `projectPath("adapters/http/pages")`. */
export const projectPath = (...parts: string[]) => join(ROOT, ...parts);
