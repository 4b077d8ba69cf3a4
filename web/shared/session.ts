/**
 * The signed-in user's bearer token: in memory, and in `sessionStorage` so a reload keeps it while
 * the tab lives. Nothing else carries authority (no cookie); signing out forgets it.
 */
export type Role = "admin" | "customer";

export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
}

export interface Session {
  readonly token: string;
  readonly user: SessionUser;
}

type Listener = (session: Session | undefined) => void;

export interface SessionStore {
  current(): Session | undefined;
  signIn(session: Session): void;
  signOut(): void;
  subscribe(listener: Listener): () => void;
}

/** One store per console; `key` names its entry in `sessionStorage`. */
export function createSessionStore(key: string, storage: Storage = sessionStorage): SessionStore {
  const listeners = new Set<Listener>();
  let session = restore(storage.getItem(key));
  const publish = () => {
    for (const listener of listeners) listener(session);
  };
  return {
    current: () => session,
    signIn(next) {
      session = next;
      storage.setItem(key, JSON.stringify(next));
      publish();
    },
    signOut() {
      session = undefined;
      storage.removeItem(key);
      publish();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function restore(stored: string | null): Session | undefined {
  if (!stored) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<Session>;
    return typeof value.token === "string" && value.user ? (value as Session) : undefined;
  } catch {
    return undefined;
  }
}
