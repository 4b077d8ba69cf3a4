import { join } from "node:path";

/**
 * The repository's root, where the files the server reads at run time live (migrations, email
 * templates, pages, the console's sources). Found from this module's folder, which is one level
 * below the root; so is `dist/`, where `npm run build` writes the bundled server, and in a bundle
 * every module sees the bundle's own folder as `import.meta.dir`. Both ways, the parent is the root.
 */
const ROOT = join(import.meta.dir, "..");

/** A path inside the repository, from its root. */
export const projectPath = (...parts: string[]) => join(ROOT, ...parts);
