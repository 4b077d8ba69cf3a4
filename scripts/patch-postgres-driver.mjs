// Run after every install (postinstall). postgres.js 3.4.9 buffers small writes and flushes them
// from a setImmediate callback. When a connection closes first, `closed()` sets its socket to null
// but keeps the stale timer handle and the buffered bytes, and a later write on that connection (a
// reserved session or transaction still holding it) reaches `socket.write` on null. That throws
// outside any query: an uncaught exception that ends the process. The same stale handle stops the
// next connection on that slot from sending its startup message until connect_timeout fires.
//
// The patch: a flush without a socket rejects the queries written to it with CONNECTION_CLOSED (as a
// close does; a query waiting for the reconnect is left alone), and `closed()` forgets the pending
// flush and its bytes. It is applied to each build of
// the driver (ESM, CommonJS, Workers), is idempotent, and fails the install if the driver changed so
// that a pattern no longer matches and the fix is not already there.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const MARK = "/* marketplace: guarded flush */";
const root = new URL("../node_modules/postgres/", import.meta.url);
const builds = ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"];

const edits = [
  {
    find: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    replace: `  function nextWrite(fn) {
    ${MARK}
    if (!socket) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      const closedError = Errors.connection('CONNECTION_CLOSED', options)
      query && (queryError(query, closedError), query = null)
      while (sent.length) queryError(sent.shift(), closedError)
      return false
    }
    const x = socket.write(chunk, fn)
`,
  },
  {
    find: "    incomings = null\n    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n",
    replace:
      "    incomings = null\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)\n",
  },
];

if (!existsSync(new URL("package.json", root))) {
  console.log("patch-postgres-driver: postgres is not installed; nothing to patch");
  process.exit(0);
}

let patched = 0;
for (const build of builds) {
  const file = new URL(build, root);
  if (!existsSync(file)) continue;
  const source = readFileSync(file, "utf8");
  if (source.includes(MARK)) continue;
  let next = source;
  for (const edit of edits) {
    if (!next.includes(edit.find)) {
      console.error(`patch-postgres-driver: ${build} no longer matches; review the patch for this driver version`);
      process.exit(1);
    }
    next = next.replace(edit.find, edit.replace);
  }
  writeFileSync(file, next);
  patched++;
}
console.log(`patch-postgres-driver: ${patched} build(s) patched`);
