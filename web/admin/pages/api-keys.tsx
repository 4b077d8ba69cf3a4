import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Checkbox, Field } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type ApiKey = Schemas["ApiKey"];
type Scope = ApiKey["scopes"][number];

/** Every scope the API names, in its order; a scope the API adds and this list lacks does not compile. */
const SCOPES = [
  "catalog:read",
  "catalog:write",
  "orders:read",
  "orders:write",
  "fulfillments:read",
  "fulfillments:write",
  "customers:read",
  "webhooks:read",
  "webhooks:write",
] as const satisfies readonly Scope[];
const everyScope: Exclude<Scope, (typeof SCOPES)[number]> extends never ? true : never = true;
void everyScope;

/** The form for a new key; the secret the answer carries is shown once, with the words to keep it. */
function NewKey(props: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<readonly Scope[]>([]);
  const [expires, setExpires] = useState("");
  const [secret, setSecret] = useState<{ name: string; value: string } | undefined>();
  const fields = useFieldErrors(["/name"]);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    const created = await unwrap(
      api.POST("/api/admin/api-keys", {
        body: { name, scopes: [...scopes], expires_at: expires ? new Date(expires).toISOString() : null },
      }),
    );
    setSecret({ name: created.name, value: created.secret });
    setName("");
    setScopes([]);
    setExpires("");
    props.onCreated();
    return undefined;
  }, fields.take);
  const toggle = (scope: Scope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((kept) => kept !== scope)));
  return (
    <section aria-labelledby="new-key">
      <h2 id="new-key">New key</h2>
      {secret ? (
        <div role="status" class="notice">
          <p>
            The secret of <strong>{secret.name}</strong>, shown this once: copy it into the integration now.
          </p>
          <p>
            <code>{secret.value}</code>
          </p>
          <button type="button" class="secondary" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <form onSubmit={submit}>
        <Field
          label="Name"
          required
          hint="What uses it, such as the storefront server or the ERP."
          error={fields.errors["/name"]}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <Checkbox key={scope} label={scope} checked={scopes.includes(scope)} onChange={(on) => toggle(scope, on)} />
          ))}
        </fieldset>
        <Field
          label="Expires"
          type="datetime-local"
          hint="Leave empty for a key that works until revoked."
          value={expires}
          onInput={(e) => setExpires(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy || scopes.length === 0}>
          Create the key
        </button>
        <p role="alert" class="error">
          {message}
        </p>
      </form>
    </section>
  );
}

/** `/admin/api-keys`: the keys integrations use instead of an admin's password. */
export function ApiKeys() {
  const pager = usePager("api-keys");
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/admin/api-keys", { params: { query: { cursor: pager.cursor } } })),
    [pager.cursor],
  );
  return (
    <>
      <h1>API keys</h1>
      <p class="note">
        A key lets an integration call the admin API within its scopes, without anyone's password. Revoking one refuses
        it at once.
      </p>
      <NewKey onCreated={reload} />
      <h2>Keys</h2>
      <Toolbar onRefresh={reload}></Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No keys yet.</p>
          ) : (
            <>
              <TableBox
                label="API keys"
                columns={["Name", "Key", "Scopes", "Created", "Last used", "Expires", "Action"]}
              >
                <tbody>
                  {found.items.map((key) => (
                    <tr key={key.id}>
                      <td>{key.name}</td>
                      <td>
                        <code>{key.prefix}…</code>
                      </td>
                      <td>{key.scopes.join(", ")}</td>
                      <td>{formatTime(key.created_at)}</td>
                      <td>{key.last_used_at ? formatTime(key.last_used_at) : "never"}</td>
                      <td>{key.expires_at ? formatTime(key.expires_at) : "never"}</td>
                      <td>
                        {key.revoked_at ? (
                          `Revoked ${formatTime(key.revoked_at)}`
                        ) : (
                          <ActionButton
                            label={`Revoke ${key.name}`}
                            confirm={`Revoke ${key.name}? Whatever uses it stops working at once.`}
                            run={() =>
                              unwrap(api.DELETE("/api/admin/api-keys/{id}", { params: { path: { id: key.id } } }))
                            }
                            describe={() => "Revoked."}
                            onDone={reload}
                          />
                        )}
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
