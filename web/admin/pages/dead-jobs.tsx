import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { Notice } from "../operations/notice.tsx";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Job = Schemas["Job"];

const PAYLOAD_SHOWN = 300;

/** The payload as sent, cut short: it names what the job was about (a fulfillment, an event). */
function payloadText(job: Job): string {
  const text = JSON.stringify(job.payload);
  return text.length > PAYLOAD_SHOWN ? `${text.slice(0, PAYLOAD_SHOWN)}…` : text;
}

export function DeadJobs() {
  const [notice, setNotice] = useState("");
  const pager = usePager("dead");
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/admin/jobs", { params: { query: { state: "dead", cursor: pager.cursor } } })),
    [pager.cursor],
  );
  const redriven = (job: Job) => {
    setNotice(`Job ${job.id} (${job.kind}) runs again from its first attempt.`);
    reload();
  };
  return (
    <>
      <h1>Dead jobs</h1>
      <p class="note">
        Background jobs that failed on every attempt. Redrive runs one again from its first attempt, once what made it
        fail is fixed.
      </p>
      <Toolbar onRefresh={reload}></Toolbar>
      <Notice text={notice} />
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No dead jobs.</p>
          ) : (
            <>
              <TableBox
                label="Dead jobs"
                columns={["Job", "Kind", "Attempts", "Last error", "Died", "Payload", "Action"]}
              >
                <tbody>
                  {found.items.map((job) => (
                    <tr key={job.id}>
                      <td>{job.id}</td>
                      <td>{job.kind}</td>
                      <td>
                        {job.attempts} of {job.max_attempts}
                      </td>
                      <td>{job.last_error ? <code>{job.last_error}</code> : "—"}</td>
                      <td>{formatTime(job.updated_at)}</td>
                      <td>
                        <code>{payloadText(job)}</code>
                      </td>
                      <td>
                        <ActionButton
                          label="Redrive"
                          run={() =>
                            unwrap(api.POST("/api/admin/jobs/{id}/redrive", { params: { path: { id: job.id } } }))
                          }
                          describe={(answer) => `Now ${answer.state}.`}
                          onDone={redriven}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
