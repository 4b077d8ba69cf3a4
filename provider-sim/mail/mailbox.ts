import type { ReceivedMail } from "./received-mail.ts";

/** Messages kept; the oldest goes first when a new one arrives. */
export const MAILBOX_CAPACITY = 500;
/**
 * Text and HTML bodies kept across all messages, in characters: a few huge messages cannot hold
 * hundreds of megabytes however many of them fit under the message count.
 */
export const MAILBOX_BODY_BUDGET = 64 * 1024 * 1024;

export interface Mailbox {
  add(mail: ReceivedMail): void;
  /** Newest first. */
  list(): readonly ReceivedMail[];
  find(id: string): ReceivedMail | undefined;
  /** Empties the box and says how many messages it held. */
  clear(): number;
}

const bodySize = (mail: ReceivedMail) => (mail.text?.length ?? 0) + (mail.html?.length ?? 0);

/** The received messages, in memory only, bounded in count and in body size. */
export function createMailbox(limits: { capacity?: number; bodyBudget?: number } = {}): Mailbox {
  const capacity = limits.capacity ?? MAILBOX_CAPACITY;
  const bodyBudget = limits.bodyBudget ?? MAILBOX_BODY_BUDGET;
  let kept: ReceivedMail[] = [];
  let bodies = 0;
  return {
    add(mail) {
      kept.push(mail);
      bodies += bodySize(mail);
      // The newest message always stays, even alone over the budget: a single send is always visible.
      while (kept.length > capacity || (bodies > bodyBudget && kept.length > 1)) {
        const dropped = kept.shift() as ReceivedMail;
        bodies -= bodySize(dropped);
      }
    },
    list: () => kept.toReversed(),
    find: (id) => kept.find((mail) => mail.id === id),
    clear() {
      const count = kept.length;
      kept = [];
      bodies = 0;
      return count;
    },
  };
}
