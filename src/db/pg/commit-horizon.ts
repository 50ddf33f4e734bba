// The webhook dispatcher reads every organization's new events with one cursor: the events numbered
// after the last one it saw (outbox.newEvents). On SQLite numbers follow commit order (one writer).
// On PostgreSQL they follow allocation order across organizations (src/db/pg/events.ts): a unit
// of organization A may take 41, one of B 42, and B commit first; a read between the two commits
// sees 42, moves the cursor past 41, and A's event would wait for the next due scan, after A's later
// events (C7: first attempts in event order). So such a read keeps only the events numbered below
// every number that a unit of this process took and had not committed when the read began, or
// committed while it ran; the rest are read again on the next pass (each commit starts one).
// One process's units only: several nodes on one database need the dispatcher's claims and
// leases (C19's second step, issue 35).

/** A unit that took event numbers: the first it took. */
interface Numbering {
  seq: number;
}

export class CommitHorizon {
  private readonly numbering = new Set<Numbering>();
  /** Reads under way: the least number a unit finished with while each ran. */
  private readonly reads = new Set<{ least: number }>();

  /** A unit took `seq`, its first event number: call the answer once it has committed or rolled back. */
  took(seq: number): () => void {
    const unit: Numbering = { seq };
    this.numbering.add(unit);
    return () => {
      if (!this.numbering.delete(unit)) return;
      for (const read of this.reads) read.least = Math.min(read.least, seq);
    };
  }

  /** Runs `read` (rows in number order) and keeps the rows numbered below the horizon. */
  async below<R extends { seq: number }>(read: () => R[] | Promise<R[]>): Promise<R[]> {
    const running = { least: this.least() };
    this.reads.add(running);
    let rows: R[];
    try {
      rows = await read();
    } finally {
      this.reads.delete(running);
    }
    const horizon = Math.min(running.least, this.least());
    if (horizon === Infinity) return rows;
    const kept = rows.findIndex((row) => row.seq >= horizon);
    return kept < 0 ? rows : rows.slice(0, kept);
  }

  private least(): number {
    let least = Infinity;
    for (const unit of this.numbering) least = Math.min(least, unit.seq);
    return least;
  }
}
