// Who may hold the webhook's body slots (issue 31, section 5): a request is a stranger until its token shows (in the
// URL's query, or the body's `token` field, which Synology sends first). Strangers never take a slot while they show
// their first bytes: they get `tokenMs` to show a token, at most `maxStrangers` of them are read at once (a newer one
// drops the oldest), and one whose first bytes pass with no token in them may hold only `strangerSlots` of the
// slots. So a sender without the token, however slow or many, cannot keep a valid message out: 16 connections
// trickling `text=` used to hold all 16 slots for the whole 30 s request time limit.

export interface ReadSlotsOptions {
  /** Bodies read (and stored) at once: each may hold up to the HTTP cap. */
  slots: number;
  /** Of those, at most this many may go to bodies that have not shown the token. */
  strangerSlots: number;
  /** Requests read at once before their token shows (each holding a few KiB); past this the oldest is dropped. */
  maxStrangers: number;
  /** How long a request may take to show its token. */
  tokenMs: number;
  /** Called when a stranger is dropped (the token late, or room made for a newer one). */
  onDrop: (why: "late" | "crowded") => void;
}

export interface ReadTicket {
  /** Aborted when the read must stop: its token did not show in time, or it made room for a newer request. */
  signal: AbortSignal;
  /** The right token showed: the read takes a slot; false when none is free. After `holdAsStranger` too: its
   *  deadline ends and its strangers' slot becomes a verified one. */
  verify(): boolean;
  /** The first bytes passed with no token in them: the read takes one of the strangers' slots; false when none is free. */
  holdAsStranger(): boolean;
  /** The body is read: no more deadline, and it is no longer a stranger being read. The slot is kept until `close`. */
  settle(): void;
  close(): void;
}

export interface ReadSlots {
  /** A new request; `verified` when its URL already carried the right token (then null when no slot is free). */
  open(verified: boolean): ReadTicket | null;
  /** Slots held now (bodies being read or stored). */
  held(): number;
  /** Requests being read at all: the slots held and the strangers still showing their first bytes. */
  busy(): number;
}

export function createReadSlots(options: ReadSlotsOptions): ReadSlots {
  let held = 0;
  let strangersHolding = 0;
  /** Strangers still showing their first bytes, oldest first (a Set keeps insertion order). */
  const strangers = new Set<{ drop: (why: "late" | "crowded") => void }>();

  return {
    held: () => held,
    busy: () => held + strangers.size,
    open(verified) {
      if (verified && held >= options.slots) return null;
      const controller = new AbortController();
      let slot: "none" | "verified" | "stranger" = verified ? "verified" : "none";
      if (verified) held += 1;
      let timer: NodeJS.Timeout | null = null;
      const entry = {
        drop: (why: "late" | "crowded") => {
          leaveStrangers();
          options.onDrop(why);
          controller.abort(why);
        },
      };
      const leaveStrangers = () => {
        strangers.delete(entry);
        if (timer !== null) clearTimeout(timer);
        timer = null;
      };
      if (!verified) {
        if (strangers.size >= options.maxStrangers) strangers.values().next().value?.drop("crowded");
        strangers.add(entry);
        timer = setTimeout(() => entry.drop("late"), options.tokenMs);
        timer.unref();
      }
      const release = () => {
        if (slot === "none") return;
        held -= 1;
        if (slot === "stranger") strangersHolding -= 1;
        slot = "none";
      };
      return {
        signal: controller.signal,
        verify() {
          leaveStrangers();
          if (slot === "verified") return true;
          release();
          if (held >= options.slots) return false;
          held += 1;
          slot = "verified";
          return true;
        },
        holdAsStranger() {
          if (slot !== "none") return true;
          // Still a stranger: its deadline runs on, but it no longer counts among the first-bytes readers.
          strangers.delete(entry);
          if (held >= options.slots || strangersHolding >= options.strangerSlots) return false;
          held += 1;
          strangersHolding += 1;
          slot = "stranger";
          return true;
        },
        settle: leaveStrangers,
        close() {
          leaveStrangers();
          release();
        },
      };
    },
  };
}
