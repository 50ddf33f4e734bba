// The figures of a board's first load that test/console/board-speed.browser.test.ts records and
// bench/console.ts writes into docs/performance.md: one shape for both.

export interface Load {
  /** From the navigation's start to the board being interactive. */
  interactive_ms: number;
  /** From the navigation's start to the end of the last API answer: what is left of interactive_ms
   * after it is the drawing of the columns. */
  last_answer_ms: number;
  /** The page's main thread's busy time in the load (Chromium's TaskDuration, CPU rather than wall
   * time, so less swayed by the machine's other work), and its script, style and layout parts. */
  main_thread_ms: { task: number; script: number; style: number; layout: number };
  /** Every response of the load: compressed bodies and their headers. */
  transferred_bytes: number;
  requests: number;
  /** The same, by kind: the page and its assets, and the API's answers. */
  assets_bytes: number;
  api_bytes: number;
  api_requests: number;
}

export interface BoardFigures {
  measured_at: string;
  dossiers: number;
  columns: number;
  cpus: number;
  load_average: number;
  loads: Load[];
  interactive_ms_median: number;
  transferred_bytes_median: number;
}
