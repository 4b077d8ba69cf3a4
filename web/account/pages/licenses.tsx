import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatMoney, formatTime, humanize, safeHref } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded } from "../../shared/ui.tsx";
import { Card } from "../card.tsx";
import { api } from "../context.ts";

type License = Schemas["License"];

/**
 * A regular license moves up to extended by paying the difference: an order of its own at the
 * gateway's checkout, where the page leads. Paid, the same license is re-keyed as extended.
 */
function Upgrade(props: { license: License }) {
  if (props.license.license_type !== "regular" || props.license.status !== "active") return null;
  return (
    <p>
      <ActionButton
        label="Upgrade to extended"
        run={async () => {
          const opened = await unwrap(
            api.POST("/api/licenses/{id}/upgrade", {
              params: { path: { id: props.license.id } },
              body: { variant: "extended" },
            }),
          );
          window.location.assign(opened.checkout.url);
          return opened;
        }}
        describe={(opened) => `Opening the checkout for ${formatMoney(opened.total, opened.currency)}…`}
      />
    </p>
  );
}

type Machine = Schemas["Machine"];

/** Saves text as a file the browser downloads. */
function save(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * A signed license file for a machine that will be offline, for as long as the license allows,
 * checked out with the key (the software's own call) and saved as a file to copy to the machine.
 */
function LicenseFile(props: { license: License; machine: Machine }) {
  const { license, machine } = props;
  // A floating machine checks its file out itself, while it still sends heartbeats; one the
  // customer picks here is usually offline already, and would lose its seat on asking.
  if (license.offline_checkout_max_days === 0 || license.status !== "active" || license.floating) return null;
  return (
    <ActionButton
      label="Download license file"
      run={async () => {
        const file = await unwrap(
          api.POST("/api/licenses/checkout", {
            body: {
              license_key: license.license_key,
              fingerprint: machine.fingerprint,
              ttl_days: license.offline_checkout_max_days,
            },
          }),
        );
        save(`${license.product_name}-${machine.name ?? machine.fingerprint}.license.json`, file.license_file);
        return file;
      }}
      describe={(file) => `Saved; it works offline until ${formatTime(file.expires_at)}.`}
    />
  );
}

/** The key on the clipboard, for pasting into the software. */
function CopyKey(props: { licenseKey: string }) {
  return (
    <ActionButton
      label="Copy key"
      run={() => navigator.clipboard.writeText(props.licenseKey)}
      describe={() => "Copied."}
    />
  );
}

/**
 * The machines a license is activated on, asked for on the click, each with a button that frees
 * its seat (a replaced laptop): the software can then activate elsewhere.
 */
function Machines(props: { license: License }) {
  const path = { params: { path: { id: props.license.id } } };
  const [machines, setMachines] = useState<readonly Machine[] | undefined>();
  const load = async () => {
    const page = await unwrap(api.GET("/api/licenses/{id}/machines", path));
    setMachines(page.items);
    return page;
  };
  if (props.license.activations === 0 && !machines) return null;
  if (!machines) {
    return <ActionButton label="Show machines" run={load} describe={() => ""} />;
  }
  if (machines.length === 0) return <p class="note">No machine holds a seat.</p>;
  return (
    <ul aria-label="Machines">
      {machines.map((machine) => (
        <li key={machine.id}>
          {machine.name ?? machine.hostname ?? machine.fingerprint}
          <span class="note">
            {machine.platform ? ` · ${machine.platform}` : ""} · last seen {formatTime(machine.last_seen_at)}
          </span>{" "}
          <LicenseFile license={props.license} machine={machine} />
          <ActionButton
            label="Deactivate"
            run={async () => {
              await unwrap(
                api.DELETE("/api/licenses/{id}/machines/{machine_id}", {
                  params: { path: { id: props.license.id, machine_id: machine.id } },
                }),
              );
              return load();
            }}
            describe={() => "The seat is free."}
          />
        </li>
      ))}
    </ul>
  );
}

function LicenseCard(props: { license: License }) {
  const { license } = props;
  const download = safeHref(license.download_url);
  return (
    <Card
      heading={
        <>
          {license.product_name} <span class="note">({humanize(license.license_type)})</span>
        </>
      }
    >
      <p>
        Status: <strong>{license.status}</strong>
        <span class="note">
          {" · "}
          {license.activations} of {license.max_activations}{" "}
          {license.floating ? "floating seats in use" : "activations used"}
          {" · "}
          {license.expires_at ? `expires ${formatTime(license.expires_at)}` : "never expires"}
        </span>
      </p>
      <p>
        License key: <code>{license.license_key}</code> <CopyKey licenseKey={license.license_key} />
      </p>
      <p>
        {download ? (
          <a href={download}>Download {license.product_name}</a>
        ) : license.download_url ? (
          `Download ${license.product_name}: the link given is not one this page can open.`
        ) : (
          "No download is available for this license."
        )}
      </p>
      <Machines license={license} />
      <Upgrade license={license} />
    </Card>
  );
}

/** The customer's license keys, with how many machines use each and where to download the release. */
export function Licenses() {
  const { result } = useLoad(() => unwrap(api.GET("/api/licenses")), []);
  return (
    <>
      <h1>Licenses</h1>
      <Loaded result={result}>
        {(page) =>
          page.items.length === 0 ? (
            <p>You have no licenses.</p>
          ) : (
            page.items.map((license) => <LicenseCard key={license.id} license={license} />)
          )
        }
      </Loaded>
    </>
  );
}
