// Run after every install (postinstall). Two fixes to postgres.js 3.4.9, each applied to every build
// of the driver (ESM, CommonJS, Workers); the script is idempotent and fails the install if the
// driver changed so that a pattern no longer matches and the fix is not already there.
//
// 1. Connections. The driver buffers small writes and flushes them from a setImmediate callback.
//    When a connection closes first, `closed()` sets its socket to null but keeps the stale timer
//    handle and the buffered bytes, and a later write on that connection (a reserved session or
//    transaction still holding it) reaches `socket.write` on null. That throws outside any query:
//    an uncaught exception that ends the process. The same stale handle stops the next connection
//    on that slot from sending its startup message until connect_timeout fires. The patch: a flush
//    without a socket rejects the queries written to it with CONNECTION_CLOSED (as a close does; a
//    query waiting for the reconnect is left alone), and `closed()` forgets the pending flush and
//    its bytes.
//
// 2. The pool's queues. A queue's `shift` leaves a hole at the front of its array and only starts
//    a new array once it is empty, and `remove` searches the whole array from the start. The idle
//    connections' queue is never empty while the pool has a spare connection, so its array grows by
//    one slot per query for as long as the process runs, and every query scans all of it when it
//    takes a connection (the connection taken is removed from the idle queue it was just shifted
//    from): measured at 20,000 slots after 5,000 orders, and the largest single cost of the
//    marketplace's CPU under steady load. The patch: `remove` searches from the queue's head, and
//    `shift` drops the holes once they are half the array.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const root = new URL("../node_modules/postgres/", import.meta.url);
const builds = (file) => [`src/${file}`, `cjs/src/${file}`, `cf/src/${file}`];

const FLUSH_MARK = "/* marketplace: guarded flush */";
const QUEUE_MARK = "/* marketplace: queue searched from its head */";

const connectionEdits = [
  {
    find: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    replace: `  function nextWrite(fn) {
    ${FLUSH_MARK}
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

const queueEdits = [
  {
    find: "    remove: (x) => {\n      const index = xs.indexOf(x)\n      return index === -1\n        ? null\n        : (xs.splice(index, 1), x)\n",
    replace: `    remove: (x) => {
      ${QUEUE_MARK}
      const found = xs.indexOf(x, index)
      return found === -1
        ? null
        : (xs.splice(found, 1), x)
`,
  },
  {
    find: "      } else {\n        xs[index - 1] = undefined\n      }\n",
    replace: `      } else {
        xs[index - 1] = undefined
        if (index >= 64 && index * 2 >= xs.length) {
          xs = xs.slice(index)
          index = 0
        }
      }
`,
  },
];

const patches = [
  { files: builds("connection.js"), mark: FLUSH_MARK, edits: connectionEdits },
  { files: builds("queue.js"), mark: QUEUE_MARK, edits: queueEdits },
];

if (!existsSync(new URL("package.json", root))) {
  console.log("patch-postgres-driver: postgres is not installed; nothing to patch");
  process.exit(0);
}

let patched = 0;
for (const { files, mark, edits } of patches) {
  for (const build of files) {
    const file = new URL(build, root);
    if (!existsSync(file)) continue;
    const source = readFileSync(file, "utf8");
    if (source.includes(mark)) continue;
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
}
console.log(`patch-postgres-driver: ${patched} file(s) patched`);
